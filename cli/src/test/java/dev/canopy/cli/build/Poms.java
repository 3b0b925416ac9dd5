package dev.canopy.cli.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** Reading the project's POMs in the build tests. */
final class Poms {

    private Poms() {
    }

    static Document read(Path pom) throws Exception {
        assertThat(pom).exists();
        try (var in = Files.newInputStream(pom)) {
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
        }
    }

    /** The text of {@code element}'s direct child {@code name}. */
    static String child(Element element, String name) {
        for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element child && child.getTagName().equals(name)) {
                return child.getTextContent().trim();
            }
        }
        throw new AssertionError(element.getTagName() + " has no " + name);
    }
}
