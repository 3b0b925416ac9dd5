package dev.canopy.cli.build;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.canopy.cli.build.Poms.child;
import static dev.canopy.cli.build.Poms.read;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Dependencies between modules point one way ({@link ModuleLayers}), in the poms of every module of the build
 * (any scope) and in the compiled classes of the modules on this test's class path (all but bench and examples,
 * whose poms are checked here and whose classes ExamplesUseOnlyTheApiTest checks); topology stays free of Vert.x
 * and ZooKeeper.
 */
@Timeout(300)
class ModuleLayersTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final JavaClasses CANOPY = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.canopy");
    private static final List<String> RUNTIMES = List.of("io.vertx", "org.apache.zookeeper", "org.apache.curator");

    @Test
    void everyModulesPomDependsOnlyOnModulesBelowIt() throws Exception {
        Map<String, List<String>> wrongWay = new TreeMap<>();
        for (String module : modules()) {
            assertThat(ModuleLayers.MAY_USE).as("the layer of module %s (ModuleLayers)", module).containsKey(module);
            List<String> wrong = new ArrayList<>();
            for (Element dependency : dependencies(module)) {
                String artifact = child(dependency, "artifactId");
                if (child(dependency, "groupId").equals("dev.canopy") && artifact.startsWith("canopy-")
                        && !ModuleLayers.MAY_USE.get(module).contains(artifact.substring("canopy-".length()))) {
                    wrong.add(artifact);
                }
            }
            if (!wrong.isEmpty()) {
                wrongWay.put(module, wrong);
            }
        }
        assertThat(wrongWay).as("modules whose poms depend on modules at or above their own layer").isEmpty();
    }

    @Test
    void topologyAndWhatItBuildsOnDeclareNoRuntime() throws Exception {
        for (String module : List.of("topology", "grid-config")) {
            for (Element dependency : dependencies(module)) {
                assertThat(child(dependency, "groupId")).as("a dependency of %s", module).isNotIn(RUNTIMES);
            }
        }
    }

    @Test
    void classesUseOnlyTheModulesBelowThem() {
        layers(CANOPY).check(CANOPY);
    }

    @Test
    void topologyClassesUseNoRuntime() {
        noClasses().that().resideInAPackage("dev.canopy.topology..")
                .should().dependOnClassesThat()
                .resideInAnyPackage(RUNTIMES.stream().map(runtime -> runtime + "..").toArray(String[]::new))
                .because("topology is pure: graphs in, plans out, testable in microseconds")
                .check(CANOPY);
    }

    /** One layer per module whose classes are on this class path. */
    private static LayeredArchitecture layers(JavaClasses canopy) {
        List<String> present = ModuleLayers.MAY_USE.keySet().stream()
                .filter(module -> canopy.containPackage(ModuleLayers.rootPackage(module)))
                .sorted().toList();
        assertThat(present).containsAll(ModuleLayers.LIBRARY);
        LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (String module : present) {
            layers = layers.layer(module).definedBy(ModuleLayers.rootPackage(module) + "..");
        }
        for (String module : present) {
            String[] below = ModuleLayers.MAY_USE.get(module).stream().filter(present::contains).sorted()
                    .toArray(String[]::new);
            layers = below.length == 0
                    ? layers.whereLayer(module).mayNotAccessAnyLayer()
                    : layers.whereLayer(module).mayOnlyAccessLayers(below);
        }
        return layers;
    }

    private static List<String> modules() throws Exception {
        List<String> modules = new ArrayList<>();
        Element parent = (Element) read(ROOT.resolve("pom.xml")).getDocumentElement()
                .getElementsByTagName("modules").item(0);
        NodeList nodes = parent.getElementsByTagName("module");
        for (int i = 0; i < nodes.getLength(); i++) {
            String module = nodes.item(i).getTextContent().trim();
            if (!module.equals("bom")) {
                modules.add(module);
            }
        }
        return modules;
    }

    /** The module's own dependencies (not those it manages or its plugins'). */
    private static List<Element> dependencies(String module) throws Exception {
        List<Element> dependencies = new ArrayList<>();
        Element project = read(ROOT.resolve(module).resolve("pom.xml")).getDocumentElement();
        for (Node node = project.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals("dependencies")) {
                NodeList list = element.getElementsByTagName("dependency");
                for (int i = 0; i < list.getLength(); i++) {
                    dependencies.add((Element) list.item(i));
                }
            }
        }
        return dependencies;
    }
}
