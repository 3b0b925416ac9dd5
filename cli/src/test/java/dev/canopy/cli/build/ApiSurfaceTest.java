package dev.canopy.cli.build;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The public surface of Canopy's library modules (docs/library.md, "The public surface"): a package of a library
 * module is internal when its name has an {@code internal} segment, and an api package otherwise. A class a user
 * can reach in an api package names no internal type in a signature a user can call, override or assign: public
 * and protected methods, constructors and fields (with generic arguments and thrown exceptions), its superclass,
 * its interfaces and its type parameters' bounds. So a program that imports only api packages never needs an
 * internal one, and Canopy may change its internal packages freely.
 *
 * <p>The exceptions below are today's mixed packages, each with its reason (docs/library.md lists them too); an
 * exception that no longer matches anything fails {@link #everyExceptionIsStillNeeded()}, so the list only shrinks.
 */
@Timeout(300)
class ApiSurfaceTest {

    private static final JavaClasses CANOPY = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.canopy");

    /** Types a user needs that stay in an internal package (moving them needs wider access than the split). */
    static final Map<String, String> API_TYPES_IN_INTERNAL_PACKAGES = Map.of(
            "dev.canopy.collectives.internal.multicast.PersistentRequest",
            "what Collectives.bcastInit/scatterInit/scattervInit return; built from the package-private"
                    + " PersistentInit and PersistentFrame");

    private static final String SHARES_TRANSPORT = "the transport's implementation, used by membership, multicast and"
            + " the collectives; it shares package-private classes (Handshake, PeerConnection, InboundPeers,"
            + " TransportTls) with TransportOptions";

    private static final String SEGMENTATION = "as CollectiveSettings#<init>";
    private static final String PLAN_INSIDE = "the engine's and planner's side of a plan; a program makes plans"
            + " with ConfiguredPlans.of(members, grid) and hands them to Collectives";
    private static final String PLANNER_INPUT = "the planner's latency and bandwidth inputs, public for the cli and"
            + " the live plans";

    /**
     * Internal types public for Canopy's own modules in an api package (a class name), or internal members of an
     * api type (class#member, every overload): the signatures they name are not checked.
     */
    static final Map<String, String> INTERNAL_IN_API_PACKAGES = Map.ofEntries(
            Map.entry("dev.canopy.core.transport.Transport", SHARES_TRANSPORT),
            Map.entry("dev.canopy.core.transport.TransportLayer", SHARES_TRANSPORT),
            Map.entry("dev.canopy.core.transport.VertxTransport", SHARES_TRANSPORT),
            Map.entry("dev.canopy.core.transport.Datagram", SHARES_TRANSPORT),
            Map.entry("dev.canopy.core.transport.SourceCheck", SHARES_TRANSPORT),
            Map.entry("dev.canopy.core.transport.FrameFamily", SHARES_TRANSPORT),
            Map.entry("dev.canopy.core.comm.CommunicatorRuntime", "the runtime behind every Communicator, made by"
                    + " CanopyNode; it shares package-private GroupCommunicator, Mailbox and RankChannel"),
            Map.entry("dev.canopy.core.node.CanopyNode", "the process's node that CanopySession wraps; it shares"
                    + " package-private MemberSourceCheck and NodeOptions' internals"),
            Map.entry("dev.canopy.core.node.NodeOptions#zooKeeperCredentials", "derived from the job secret for"
                    + " Canopy's own ZooKeeper sessions"),
            Map.entry("dev.canopy.dynamic.InterCommunicator#securityCounters", "the transport's rejection"
                    + " counters, read by Canopy's security tests"),
            Map.entry("dev.canopy.collectives.CollectiveObserver", "the engine's hook for timings and the dashboard;"
                    + " Collectives calls it package-privately"),
            Map.entry("dev.canopy.collectives.CollectiveSettings#<init>", "the engine's segmentation tuning;"
                    + " a program uses CollectiveSettings.defaults()"),
            Map.entry("dev.canopy.collectives.CollectiveSettings#pipeline", SEGMENTATION),
            Map.entry("dev.canopy.collectives.CollectiveSettings#withPipeline", SEGMENTATION),
            Map.entry("dev.canopy.collectives.CollectiveSettings#thresholds", SEGMENTATION),
            Map.entry("dev.canopy.collectives.CollectiveSettings#withThresholds", SEGMENTATION),
            Map.entry("dev.canopy.collectives.Collectives#broadcastPath", "Canopy's own wiring: multicast bcast"),
            Map.entry("dev.canopy.collectives.Collectives#withBroadcastPath", "Canopy's own wiring: multicast bcast"),
            Map.entry("dev.canopy.collectives.plan.CollectivePlan#tree", PLAN_INSIDE),
            Map.entry("dev.canopy.collectives.plan.CollectivePlan#treeOffLoop", PLAN_INSIDE),
            Map.entry("dev.canopy.collectives.plan.SizedPlan#tree", PLAN_INSIDE),
            Map.entry("dev.canopy.collectives.plan.SizedPlan#treeOffLoop", PLAN_INSIDE),
            Map.entry("dev.canopy.collectives.plan.TopologyPlan#tree", PLAN_INSIDE),
            Map.entry("dev.canopy.collectives.plan.TopologyPlan#treeOffLoop", PLAN_INSIDE),
            Map.entry("dev.canopy.collectives.plan.TopologyPlan#hierarchicalPlan", PLAN_INSIDE),
            Map.entry("dev.canopy.collectives.plan.TopologyPlan#<init>", PLAN_INSIDE),
            Map.entry("dev.canopy.collectives.plan.ConfiguredPlans#of", "the overloads that choose level"
                    + " algorithms, LogGP parameters or forecasts are Canopy's own (cli, live plans); a program uses"
                    + " of(members, grid)"),
            Map.entry("dev.canopy.collectives.plan.ConfiguredPlans#planner", PLAN_INSIDE),
            Map.entry("dev.canopy.collectives.plan.ConfiguredPlans#cost", PLAN_INSIDE),
            Map.entry("dev.canopy.collectives.plan.ConfiguredPlans#COST", PLAN_INSIDE),
            Map.entry("dev.canopy.collectives.plan.GridBandwidths", PLANNER_INPUT),
            Map.entry("dev.canopy.collectives.plan.GridLatencies", PLANNER_INPUT),
            Map.entry("dev.canopy.collectives.plan.LevelChoices", PLANNER_INPUT),
            Map.entry("dev.canopy.collectives.plan.ProbedBandwidths", PLANNER_INPUT),
            Map.entry("dev.canopy.collectives.plan.SitePairBandwidths", PLANNER_INPUT),
            Map.entry("dev.canopy.collectives.run.Canopy#joinConnected", "a spawn's warm JVM joins over the"
                    + " ZooKeeper session it opened before it was handed its job"),
            Map.entry("dev.canopy.collectives.run.CanopySession#zooKeeperSession", "the one ZooKeeper session per"
                    + " process, shared with Canopy's name service and dashboard"),
            Map.entry("dev.canopy.collectives.run.CanopySession#groups", "group collectives (issue 14) name the"
                    + " multicast substrate's GroupPolicy and GroupCollectives, not settled as api yet"),
            Map.entry("dev.canopy.collectives.run.CanopySession#groupsAsync", "as groups"),
            Map.entry("dev.canopy.collectives.run.EmulatedGrid$ProcessLayers", "the WAN emulator's layers of one"
                    + " emulated process, for Canopy's launcher and tests"),
            Map.entry("dev.canopy.collectives.run.GridEmulation", "the launcher's WAN emulation, read from the"
                    + " environment"),
            Map.entry("dev.canopy.collectives.run.LivePlans", "the live-plan machinery the join starts"),
            Map.entry("dev.canopy.collectives.run.LivePlanSettings#<init>", "the plan leader's and probes' tuning;"
                    + " a program uses LivePlanSettings.defaults()"),
            Map.entry("dev.canopy.collectives.run.LivePlanSettings#leader", "as <init>"),
            Map.entry("dev.canopy.collectives.run.LivePlanSettings#probes", "as <init>"),
            Map.entry("dev.canopy.dynamic.DynamicProcesses#over", "for Canopy's tools with a ZooKeeper session of"
                    + " their own; a program uses DynamicProcesses.of(session, options)"),
            Map.entry("dev.canopy.dynamic.NameService#over", "as DynamicProcesses#over"));

    /** One internal type named by one signature of a type users reach. */
    record Exposure(JavaClass type, String member, JavaClass named) {
        String memberKey() {
            return type.getName() + "#" + member;
        }

        boolean excepted() {
            return excepting().isPresent();
        }

        Optional<String> excepting() {
            for (JavaClass owner = type; owner != null; owner = owner.getEnclosingClass().orElse(null)) {
                if (INTERNAL_IN_API_PACKAGES.containsKey(owner.getName())) {
                    return Optional.of(owner.getName());
                }
            }
            return INTERNAL_IN_API_PACKAGES.containsKey(memberKey())
                    ? Optional.of(memberKey()) : Optional.empty();
        }

        @Override
        public String toString() {
            return type.getName() + " exposes " + named.getName() + " in " + member;
        }
    }

    @Test
    void noApiSignatureNamesAnInternalType() {
        apiSignaturesNameNoInternalType().check(CANOPY);
    }

    @Test
    void everyExceptionIsStillNeeded() {
        Set<String> used = new TreeSet<>(API_TYPES_IN_INTERNAL_PACKAGES.keySet().stream()
                .filter(CANOPY::contain).toList());
        for (JavaClass type : CANOPY) {
            if (inAnApiPackage().test(type) && reachable(type)) {
                exposures(type).forEach(exposure -> exposure.excepting().ifPresent(used::add));
            }
        }
        assertThat(used).as("exceptions that still match").containsAll(INTERNAL_IN_API_PACKAGES.keySet())
                .containsAll(API_TYPES_IN_INTERNAL_PACKAGES.keySet());
    }

    static ArchRule apiSignaturesNameNoInternalType() {
        return classes().that(inAnApiPackage()).and(reachableByUsers())
                .should(nameNoInternalTypeInTheirSignatures())
                .because("a user who imports only api packages must be able to call, extend and implement"
                        + " every api type (move the named type to an api package, or the member out of the api)");
    }

    private static DescribedPredicate<JavaClass> inAnApiPackage() {
        return DescribedPredicate.describe("are in an api package of a library module",
                type -> ModuleLayers.isLibraryPackage(type.getPackageName()) && !isInternal(type));
    }

    /** Public, or a public or protected member class of a class that is itself reachable. */
    private static DescribedPredicate<JavaClass> reachableByUsers() {
        return DescribedPredicate.describe("are reachable by users", ApiSurfaceTest::reachable);
    }

    private static boolean reachable(JavaClass type) {
        if (type.isAnonymousClass() || type.isLocalClass()) {
            return false;
        }
        if (type.getEnclosingClass().isEmpty()) {
            return type.getModifiers().contains(JavaModifier.PUBLIC);
        }
        return visibleToUsers(type.getModifiers()) && reachable(type.getEnclosingClass().get());
    }

    private static boolean visibleToUsers(Collection<JavaModifier> modifiers) {
        return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
    }

    /** In a package with an {@code internal} segment, unless listed as api. */
    private static boolean isInternal(JavaClass type) {
        JavaClass outermost = type;
        while (outermost.getEnclosingClass().isPresent()) {
            outermost = outermost.getEnclosingClass().get();
        }
        return type.getPackageName().startsWith("dev.canopy.")
                && List.of(type.getPackageName().split("\\.")).contains("internal")
                && !API_TYPES_IN_INTERNAL_PACKAGES.containsKey(outermost.getName());
    }

    private static ArchCondition<JavaClass> nameNoInternalTypeInTheirSignatures() {
        return new ArchCondition<>("name no internal type in a public or protected signature") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                for (Exposure exposure : exposures(type)) {
                    if (!exposure.excepted()) {
                        events.add(SimpleConditionEvent.violated(type, exposure.toString()));
                    }
                }
            }
        };
    }

    private static List<Exposure> exposures(JavaClass type) {
        List<Exposure> exposures = new ArrayList<>();
        type.getSuperclass().ifPresent(superclass -> expose(exposures, type, "its superclass", superclass));
        type.getInterfaces().forEach(face -> expose(exposures, type, "its interfaces", face));
        type.getTypeParameters().forEach(parameter -> expose(exposures, type, "its type parameters", parameter));
        for (JavaMember member : type.getMembers()) {
            if (!visibleToUsers(member.getModifiers()) || member.getModifiers().contains(JavaModifier.SYNTHETIC)) {
                continue;
            }
            if (member instanceof JavaField field) {
                expose(exposures, type, field.getName(), field.getType());
            } else if (member instanceof JavaCodeUnit code) {
                expose(exposures, type, code.getName(), code.getReturnType());
                code.getParameterTypes().forEach(parameter -> expose(exposures, type, code.getName(), parameter));
                code.getThrowsClause().getTypes().forEach(thrown -> expose(exposures, type, code.getName(), thrown));
                code.getTypeParameters().forEach(parameter -> expose(exposures, type, code.getName(), parameter));
            }
        }
        return exposures;
    }

    private static void expose(List<Exposure> exposures, JavaClass type, String member, JavaType signatureType) {
        for (JavaClass named : signatureType.getAllInvolvedRawTypes()) {
            if (isInternal(named)) {
                exposures.add(new Exposure(type, member, named));
            }
        }
    }
}
