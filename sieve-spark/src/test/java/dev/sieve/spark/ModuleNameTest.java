package dev.sieve.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.module.ModuleDescriptor;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * sieve-spark has no {@code module-info} (Spark's jars have no module names it could require), so
 * its jar carries a stable automatic module name, {@code dev.sieve.spark}, set by the
 * maven-jar-plugin's manifest entries in this module's pom. The jar is written after the tests run,
 * so this test reads the pom's configuration: exactly one {@code Automatic-Module-Name}, a valid
 * module name, equal to the package every main class lives in.
 */
class ModuleNameTest {

  @Test
  void thePomGivesTheJarTheAutomaticModuleNameDevSieveSpark() throws Exception {
    File pom = new File("pom.xml");
    assertTrue(pom.isFile(), "run from the sieve-spark module directory: " + pom.getAbsolutePath());
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    Document doc = factory.newDocumentBuilder().parse(pom);
    List<String> names = new ArrayList<>();
    NodeList plugins = doc.getElementsByTagName("plugin");
    for (int i = 0; i < plugins.getLength(); i++) {
      Element plugin = (Element) plugins.item(i);
      if (!text(plugin, "artifactId").equals("maven-jar-plugin")) {
        continue;
      }
      NodeList entries = plugin.getElementsByTagName("manifestEntries");
      for (int j = 0; j < entries.getLength(); j++) {
        NodeList named = ((Element) entries.item(j)).getElementsByTagName("Automatic-Module-Name");
        for (int k = 0; k < named.getLength(); k++) {
          names.add(named.item(k).getTextContent().trim());
        }
      }
    }
    assertEquals(List.of("dev.sieve.spark"), names);
    // a valid module name (Spark's own file-derived names, e.g. spark.sql.2.13, are not)
    assertEquals(
        "dev.sieve.spark", ModuleDescriptor.newAutomaticModule(names.get(0)).build().name());
    assertEquals(names.get(0), SieveSpark.class.getPackageName());
  }

  private static String text(Element parent, String tag) {
    NodeList nodes = parent.getElementsByTagName(tag);
    return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().trim();
  }
}
