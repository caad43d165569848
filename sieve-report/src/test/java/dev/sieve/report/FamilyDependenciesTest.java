package dev.sieve.report;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The filter families reach the registry and the container only through their ServiceLoader
 * providers: on sieve-core's compiled classes (so an inline fully-qualified name counts as much as
 * an import), the registry and the container depend on no family package, and no other core package
 * depends on the range filters or the other systems' filters, the families that are to move into
 * modules of their own.
 */
class FamilyDependenciesTest {

  private static final String[] FAMILIES = {
    "dev.sieve.bloom",
    "dev.sieve.cuckoo",
    "dev.sieve.expand",
    "dev.sieve.interop",
    "dev.sieve.range",
    "dev.sieve.ribbon",
    "dev.sieve.shard",
    "dev.sieve.xor"
  };

  /** sieve-core's packages, less the two families that are to move out of it. */
  private static final String[] CORE_BUT_RANGE_AND_INTEROP = {
    "dev.sieve",
    "dev.sieve.bloom",
    "dev.sieve.cuckoo",
    "dev.sieve.expand",
    "dev.sieve.format",
    "dev.sieve.hash",
    "dev.sieve.internal",
    "dev.sieve.internal.base",
    "dev.sieve.math",
    "dev.sieve.policy",
    "dev.sieve.registry",
    "dev.sieve.ribbon",
    "dev.sieve.shard",
    "dev.sieve.xor"
  };

  private static JavaClasses mainClasses() {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.sieve");
  }

  @Test
  void theRegistryAndTheContainerDependOnNoFamily() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.sieve.registry", "dev.sieve.format")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(FAMILIES)
        .check(mainClasses());
  }

  @Test
  void noOtherCorePackageDependsOnTheRangeOrTheInteropFamily() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE_BUT_RANGE_AND_INTEROP)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.sieve.range", "dev.sieve.interop")
        .check(mainClasses());
  }
}
