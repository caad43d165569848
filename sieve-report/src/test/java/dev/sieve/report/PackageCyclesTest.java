package dev.sieve.report;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * No package cycle among the main classes of every module this one sees: sieve-core, sieve-rocksdb,
 * sieve-parquet, sieve-orc, sieve-tools, sieve-cli, sieve-bench and sieve-report itself (ArchUnit
 * reads their compiled classes from the test class path, so a cycle hidden behind inline
 * fully-qualified names counts as much as one spelled with imports). It lives in the report's
 * module because that one sees the most: the report depends on sieve-bench and sieve-tools, and its
 * tests take sieve-cli, with the library modules under it, as a test dependency. Each package is a
 * slice of its own, the root package {@code dev.sieve} included, and no dependency is exempt.
 *
 * <p>The layering that keeps sieve-core acyclic: the API ({@code dev.sieve}) and the hash functions
 * ({@code dev.sieve.hash}) use only the helpers of {@code dev.sieve.internal.base}, which import no
 * other package of Sieve (scratch arrays, argument checks, the Murmur3 rounds); the internal
 * helpers typed by the API ({@code dev.sieve.internal}: payload forms, key schemes, the family
 * loader) depend on the API, never the other way, and what the API itself needs of that kind lives
 * beside it, package-private ({@code KeyBatches}).
 */
class PackageCyclesTest {

  /** The helpers below the API, which import no other package of Sieve. */
  private static final String BASE = "dev.sieve.internal.base";

  /** Every package of Sieve's main classes as a slice of its own. */
  private static final SliceAssignment PACKAGES =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
          return SliceIdentifier.of(javaClass.getPackageName());
        }

        @Override
        public String getDescription() {
          return "Sieve's packages";
        }
      };

  private static JavaClasses mainClasses() {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.sieve");
  }

  @Test
  void noPackageCycle() {
    JavaClasses classes = mainClasses();
    // the import must see every module on this class path, or the rule checks too little
    Set<String> packages =
        classes.stream().map(JavaClass::getPackageName).collect(Collectors.toSet());
    for (String expected :
        List.of(
            "dev.sieve",
            "dev.sieve.internal",
            "dev.sieve.internal.base",
            "dev.sieve.hash",
            "dev.sieve.bloom",
            "dev.sieve.sst",
            "dev.sieve.parquet",
            "dev.sieve.orc",
            "dev.sieve.json",
            "dev.sieve.cli",
            "dev.sieve.bench",
            "dev.sieve.bench.jmh",
            "dev.sieve.report")) {
      assertTrue(packages.contains(expected), "no main class of " + expected + " was imported");
    }
    ArchRule rule = slices().assignedFrom(PACKAGES).should().beFreeOfCycles();
    rule.check(classes);
  }

  /**
   * The bottom layer stays the bottom: a class of {@code dev.sieve.internal.base} that used the API
   * or any other package of Sieve would let the API's use of it close a cycle again.
   */
  @Test
  void theHelpersBelowTheApiDependOnNoOtherSievePackage() {
    noClasses()
        .that()
        .resideInAPackage(BASE)
        .should()
        .dependOnClassesThat(resideInAPackage("dev.sieve..").and(not(resideInAPackage(BASE))))
        .check(mainClasses());
  }
}
