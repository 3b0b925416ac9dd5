package dev.canopy.cli.build;

import static dev.canopy.cli.build.Poms.child;
import static dev.canopy.cli.build.Poms.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * canopy-bom lists every artifact the build makes, at the build's version, so that a user who imports it gets
 * every Canopy artifact without a version; a module added to the build without a line in the BOM fails here.
 */
@Timeout(30)
class BomTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theBomManagesEveryModuleOfTheBuildAtTheBuildsVersion() throws Exception {
        Document parent = read(ROOT.resolve("pom.xml"));
        Document bom = read(ROOT.resolve("bom/pom.xml"));

        List<String> artifacts = new ArrayList<>();
        for (String module : texts(parent.getDocumentElement(), "modules", "module")) {
            if (!module.equals("bom")) {
                artifacts.add(child(read(ROOT.resolve(module).resolve("pom.xml")).getDocumentElement(), "artifactId"));
            }
        }
        Element managed = (Element) bom.getDocumentElement().getElementsByTagName("dependencyManagement").item(0);
        List<String> listed = new ArrayList<>();
        NodeList dependencies = managed.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            assertThat(child(dependency, "groupId")).isEqualTo("dev.canopy");
            assertThat(child(dependency, "version")).isEqualTo("${project.version}");
            listed.add(child(dependency, "artifactId"));
        }

        assertThat(listed).containsExactlyInAnyOrderElementsOf(artifacts);
        assertThat(child(bom.getDocumentElement(), "artifactId")).isEqualTo("canopy-bom");
        assertThat(child(bom.getDocumentElement(), "packaging")).isEqualTo("pom");
        assertThat(child(bom.getDocumentElement(), "version")).isEqualTo(child(parent.getDocumentElement(), "version"));
    }

    private static List<String> texts(Element root, String container, String name) {
        Element parent = (Element) root.getElementsByTagName(container).item(0);
        List<String> texts = new ArrayList<>();
        NodeList nodes = parent.getElementsByTagName(name);
        for (int i = 0; i < nodes.getLength(); i++) {
            texts.add(nodes.item(i).getTextContent().trim());
        }
        return texts;
    }
}
