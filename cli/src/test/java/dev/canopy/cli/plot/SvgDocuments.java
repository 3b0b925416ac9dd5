package dev.canopy.cli.plot;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Parses the SVG the plot classes write, as a strict XML parser would. */
final class SvgDocuments {

    private SvgDocuments() {
    }

    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    /** The elements named {@code tag} whose class attribute is {@code cssClass}, in document order. */
    static List<Element> withClass(Document document, String tag, String cssClass) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = document.getElementsByTagNameNS("http://www.w3.org/2000/svg", tag);
        for (int i = 0; i < nodes.getLength(); i++) {
            Element element = (Element) nodes.item(i);
            if (element.getAttribute("class").equals(cssClass)) {
                found.add(element);
            }
        }
        return found;
    }

    /** The vertices of a path made of M and L commands, as {x, y} pairs. */
    static List<double[]> vertices(Element path) {
        List<double[]> vertices = new ArrayList<>();
        for (String step : path.getAttribute("d").split(" ")) {
            String[] xy = step.substring(1).split(",");
            vertices.add(new double[] {Double.parseDouble(xy[0]), Double.parseDouble(xy[1])});
        }
        return vertices;
    }
}
