package dev.canopy.gridconfig.internal.validate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** One check at a time: each mistake is reported where it is, with a hint where one helps. */
class ErrorsTest {

    @Test
    void unknownAttributeInEachKindOfSectionGetsAHint() {
        assertThat(Check.errors("+ ( &(type = grid) (nmae = g) ) ( &(type = subjob) (lable = a) )"
                + " ( &(type = link) (between = subjob-0 a) (rtt = 3) )")).containsExactly(
                "t.rsl:1:21: error: unknown attribute \"nmae\" in a grid section; did you mean \"name\"?",
                "t.rsl:1:53: error: unknown attribute \"lable\" in a subjob section; did you mean \"label\"?",
                "t.rsl:1:103: error: link names unknown site \"a\"; sites are subjob-0",
                "t.rsl:1:107: error: unknown attribute \"rtt\" in a link section; did you mean \"rtt_ms\"?");
    }

    @Test
    void unknownAttributeFarFromAnyKnownOneHasNoHint() {
        assertThat(Check.errors(Check.withSubjob("(label = a) (colour = blue)")))
                .containsExactly("t.rsl:2:33: error: unknown attribute \"colour\" in a subjob section");
    }

    @Test
    void everyOperatorButEqualsIsRejectedNamingTheAttribute() {
        assertThat(Check.errors(Check.withSubjob("(label != a) (count >= 2) (rsl_substitution < (A b))"))).containsExactly(
                "t.rsl:2:27: error: attribute \"label\" takes \"=\", not \"!=\"",
                "t.rsl:2:40: error: attribute \"count\" takes \"=\", not \">=\"",
                "t.rsl:2:64: error: attribute \"rsl_substitution\" takes \"=\", not \"<\"");
    }

    @Test
    void attributeGivenTwiceIsReportedAtTheSecond() {
        assertThat(Check.errors(Check.withSubjob("(count = 1) (COUNT = 2)")))
                .containsExactly("t.rsl:2:33: error: attribute \"count\" is given twice in this section; the first is at 2:21");
    }

    @Test
    void sectionsNeedAKnownType() {
        assertThat(Check.errors("+ ( &(type = subjb) (count = 1) ) ( &(label = x) ) ( &(type = subjob) )")).containsExactly(
                "t.rsl:1:14: error: unknown section type \"subjb\"; expected one of grid, subjob, link; did you mean \"subjob\"?",
                "t.rsl:1:35: error: section has no type; add (type = subjob), (type = grid) or (type = link)");
    }

    @Test
    void fileNeedsASubjob() {
        assertThat(Check.errors("+ ( &(type = grid) (name = g) )"))
                .containsExactly("t.rsl:1:1: error: the file has no subjob section; add one, e.g. ( &(type = subjob) (label = \"a\") (count = 4) )");
    }

    @Test
    void onlyOneGridSection() {
        assertThat(Check.errors("+ ( &(type = grid) ) ( &(type = grid) ) ( &(count = 1) )"))
                .containsExactly("t.rsl:1:22: error: only one grid section is allowed; the first is at 1:3");
    }

    @Test
    void countMustBeAPositiveWholeNumberWithinTheLimit() {
        assertThat(Check.errors(Check.withSubjob("(count = -1)"))).containsExactly("t.rsl:2:29: error: count must be a whole number, got \"-1\"");
        assertThat(Check.errors(Check.withSubjob("(count = 2.5)"))).containsExactly("t.rsl:2:29: error: count must be a whole number, got \"2.5\"");
        assertThat(Check.errors(Check.withSubjob("(count = 99999999999)"))).containsExactly("t.rsl:2:29: error: count is too large, got \"99999999999\"");
        assertThat(Check.errors(Check.withSubjob("(count = 1000001)"))).containsExactly("t.rsl:2:29: error: count must be at most 1000000, got 1000001");
    }

    @Test
    void totalProcessCountIsLimited() {
        assertThat(Check.errors(Check.withSubjob("(label = a) (count = 600000)", "( &(type = subjob) (label = b) (count = 600000) )")))
                .containsExactly("t.rsl:3:33: error: the job has more than 1000000 processes with this subjob");
    }

    @Test
    void hostsNeedNamesAndPositiveSlotsAndAppearOnce() {
        assertThat(Check.errors(Check.withSubjob("(hosts = \":3\")"))).containsExactly("t.rsl:2:29: error: host \":3\" has no name; write \"name\" or \"name:slots\"");
        assertThat(Check.errors(Check.withSubjob("(hosts = \"h:0\")"))).containsExactly("t.rsl:2:29: error: slots of host h must be at least 1, got 0");
        assertThat(Check.errors(Check.withSubjob("(hosts = \"h:x\")"))).containsExactly("t.rsl:2:29: error: slots of host h must be a whole number, got \"x\"");
        assertThat(Check.errors(Check.withSubjob("(hosts = h \"h:2\")")))
                .containsExactly("t.rsl:2:31: error: host h is listed twice; give it more slots instead, e.g. \"h:2\"");
    }

    @Test
    void plainAttributesRejectListsAndSecondValues() {
        assertThat(Check.errors(Check.withSubjob("(label = (a b))"))).containsExactly(
                "t.rsl:2:29: error: attribute \"label\" takes plain values, not a list in parentheses");
        assertThat(Check.errors(Check.withSubjob("(label = a b)"))).containsExactly("t.rsl:2:31: error: attribute \"label\" takes one value, found 2");
        assertThat(Check.errors(Check.withSubjob("(executable = (a b))"))).containsExactly(
                "t.rsl:2:34: error: attribute \"executable\" takes plain values, not a list in parentheses");
        assertThat(Check.errors(Check.withSubjob("(label = \" \")"))).containsExactly("t.rsl:2:29: error: attribute \"label\" must not be blank");
    }

    @Test
    void concatenationJoinsOnlyPlainValues() {
        assertThat(Check.errors(Check.withSubjob("(label = a#(b c))"))).containsExactly("t.rsl:2:29: error: '#' joins two plain values, not lists");
    }

    @Test
    void environmentTakesPairsOnceEachAndItsLanIdMustAgreeWithLanId() {
        assertThat(Check.errors(Check.withSubjob("(environment = (A 1) (B) (A 2))"))).containsExactly(
                "t.rsl:2:41: error: attribute \"environment\" takes pairs of plain values in parentheses, e.g. (environment = (NAME value))",
                "t.rsl:2:46: error: environment variable A is set twice");
        assertThat(Check.errors(Check.withSubjob("(lan_id = x) (environment = (GLOBUS_LAN_ID y))"))).containsExactly(
                "t.rsl:2:63: error: GLOBUS_LAN_ID \"y\" disagrees with lan_id \"x\"; they name the same LAN, keep one of them");
    }

    @Test
    void resourceManagerContactNamesOneHost() {
        assertThat(Check.errors(Check.withSubjob("(resourceManagerContact = \":2119/jobmanager\")"))).containsExactly(
                "t.rsl:2:46: error: resourceManagerContact \":2119/jobmanager\" names no host; write \"host[:port][/service]\"");
        assertThat(Check.errors(Check.withSubjob("(resourceManagerContact = a b)")))
                .containsExactly("t.rsl:2:48: error: attribute \"resourceManagerContact\" takes one value, found 2");
    }

    @Test
    void subjobIndexIsAWholeNumberUsedOnce() {
        assertThat(Check.errors(Check.withSubjob("(environment = (GLOBUS_DUROC_SUBJOB_INDEX first))")))
                .containsExactly("t.rsl:2:62: error: GLOBUS_DUROC_SUBJOB_INDEX must be a whole number, got \"first\"");
        assertThat(Check.errors(Check.withSubjob("(label = a) (environment = (GLOBUS_DUROC_SUBJOB_INDEX 0))",
                "( &(label = b) (count = 1) (environment = (GLOBUS_DUROC_SUBJOB_INDEX 0)) )")))
                .containsExactly("t.rsl:3:29: error: GLOBUS_DUROC_SUBJOB_INDEX \"0\" is used twice; the first is at 2:33");
    }

    @Test
    void subjobsOfOneSiteAgreeOnWanGroupAndUplink() {
        assertThat(Check.errors("""
                +
                ( &(type = subjob) (label = a) (site = s) (wan_group = w1) (uplink_mbps = 100) )
                ( &(type = subjob) (label = b) (site = s) (wan_group = w2) (uplink_mbps = 200) )
                """)).containsExactly(
                "t.rsl:3:44: error: site \"s\" is in wan_group \"w1\" (subjob \"a\") but subjob \"b\" puts it in \"w2\"; a site belongs to one wan_group",
                "t.rsl:3:61: error: site \"s\" has one uplink shared by its subjobs, but this uplink_mbps differs from subjob \"a\"'s");
    }

    @Test
    void uplinkAndBandwidthArePositiveNumbers() {
        assertThat(Check.errors(Check.withSubjob("(uplink_mbps = 0)"))).containsExactly("t.rsl:2:35: error: uplink_mbps must be > 0, got 0");
        assertThat(Check.errors(Check.withSubjob("(uplink_mbps = fast)"))).containsExactly("t.rsl:2:35: error: uplink_mbps must be a number, got \"fast\"");
        assertThat(Check.errors(Check.withSubjob("(uplink_mbps = 1e999)"))).containsExactly("t.rsl:2:35: error: uplink_mbps is too large, got 1e999");
    }

    @Test
    void aHostOfTwoSubjobsHasOneNic() {
        assertThat(Check.errors("""
                +
                ( &(type = subjob) (label = a) (site = s) (hosts = h1 h2) (nic_mbps = 1000) )
                ( &(type = subjob) (label = b) (site = s) (hosts = h2) (nic_mbps = 100) )
                """)).containsExactly(
                "t.rsl:3:57: error: host \"h2\" has one NIC shared by its subjobs, but this nic_mbps differs from subjob \"a\"'s; give both the same value");
    }

    @Test
    void nicIsAPositiveNumber() {
        assertThat(Check.errors(Check.withSubjob("(nic_mbps = 0)"))).containsExactly("t.rsl:2:32: error: nic_mbps must be > 0, got 0");
        assertThat(Check.errors(Check.withSubjob("(nic_mbps = fast)"))).containsExactly("t.rsl:2:32: error: nic_mbps must be a number, got \"fast\"");
    }

    @Test
    void linksJoinTwoDifferentKnownSitesOncePerDirection() {
        String sites = "+ ( &(type = subjob) (label = yonsei) ) ( &(type = subjob) (label = kisti) )\n";
        assertThat(Check.errors(sites + "( &(type = link) (between = yonsei kisit) (rtt_ms = 5) )")).containsExactly(
                "t.rsl:2:36: error: link names unknown site \"kisit\"; sites are yonsei, kisti; did you mean \"kisti\"?");
        assertThat(Check.errors(sites + "( &(type = link) (between = yonsei yonsei) )"))
                .containsExactly("t.rsl:2:36: error: a link joins two different sites, but both are \"yonsei\"");
        assertThat(Check.errors(sites + "( &(type = link) (between = yonsei) )"))
                .containsExactly("t.rsl:2:19: error: between takes exactly two site names, found 1");
        assertThat(Check.errors(sites + "( &(type = link) (rtt_ms = 5) )"))
                .containsExactly("t.rsl:2:1: error: link section needs the two sites it joins, e.g. (between = \"yonsei\" \"kisti\")");
        assertThat(Check.errors(sites + "( &(type = link) (between = yonsei kisti) ) ( &(type = link) (between = kisti yonsei) (direction = one_way) )"))
                .containsExactly("t.rsl:2:73: error: traffic from \"kisti\" to \"yonsei\" is already described by the link at 2:29");
        assertThat(Check.errors(sites + "( &(type = link) (between = yonsei kisti) (direction = one_way) )"
                + " ( &(type = link) (between = kisti yonsei) (direction = oneway) )")).isEmpty();
    }

    @Test
    void linkNumbersAreInRange() {
        String sites = "+ ( &(type = subjob) (label = a) ) ( &(type = subjob) (label = b) )\n";
        assertThat(Check.errors(sites + "( &(type = link) (between = a b) (rtt_ms = -1) (jitter_ms = -2) (loss = 1.5) (bandwidth_mbps = 0)"
                + " (direction = sideways) )")).containsExactly(
                "t.rsl:2:44: error: rtt_ms must be >= 0, got -1",
                "t.rsl:2:61: error: jitter_ms must be >= 0, got -2",
                "t.rsl:2:73: error: loss must be between 0 and 1, got 1.5",
                "t.rsl:2:96: error: bandwidth_mbps must be > 0, got 0",
                "t.rsl:2:112: error: unknown direction \"sideways\"; expected one of both_ways, one_way");
    }

    @Test
    void algorithmsAreCheckedAgainstTheirLevel() {
        assertThat(Check.errors("+ ( &(type = grid) (levels = (lan hlot) (host auto) (lan flat)) ) ( &(count = 1) )")).containsExactly(
                "t.rsl:1:35: error: algorithm \"hlot\" cannot run at level lan; lan takes flat, binomial, auto, multicast",
                "t.rsl:1:47: error: algorithm \"auto\" cannot run at level host; host takes binomial, local",
                "t.rsl:1:54: error: level lan is given twice; the first is at 1:31");
    }

    @Test
    void thresholdsExcludeHeavyWanAndMustIncreaseEvenAgainstDefaults() {
        assertThat(Check.errors("+ ( &(type = grid) (thresholds_ms = (heavy_wan 100) (host 1)) ) ( &(count = 1) )")).containsExactly(
                "t.rsl:1:38: error: level heavy_wan has no threshold: links slower than light_wan's threshold are heavy_wan",
                "t.rsl:1:54: error: thresholds_ms must increase from host to light_wan, but cluster 0.3 (the default) is not above host 1");
        assertThat(Check.errors("+ ( &(type = grid) (thresholds_ms = (host -1)) ) ( &(count = 1) )"))
                .containsExactly("t.rsl:1:43: error: threshold of host must be >= 0, got -1");
    }

    @Test
    void substitutionTakesNamedPlainPairs() {
        assertThat(Check.errors("+ ( &(type = grid) (rsl_substitution = A (B (c d))) ) ( &(count = 1) )")).containsExactly(
                "t.rsl:1:40: error: rsl_substitution takes pairs (NAME value), e.g. (rsl_substitution = (HOME \"/home/me\"))",
                "t.rsl:1:45: error: variable \"B\" must have a plain value, not a list");
    }

    @Test
    void misspelledVariableGetsAHint() {
        assertThat(Check.errors("+ ( &(type = grid) (rsl_substitution = (SITE s)) ) ( &(label = $(STIE)) (count = 1) )"))
                .containsExactly("t.rsl:1:64: error: undefined variable \"STIE\"; did you mean \"SITE\"?");
    }

    @Test
    void runawaySubstitutionIsStopped() {
        StringBuilder file = new StringBuilder("+ ( &(type = grid) (rsl_substitution = (A xxxxxxxxxxxxxxxx))");
        for (int i = 0; i < 40; i++) {
            file.append(" (rsl_substitution = (A $(A)#$(A)))");
        }
        file.append(" ) ( &(count = 1) )");

        assertThat(Check.errors(file.toString())).isNotEmpty()
                .allSatisfy(e -> assertThat(e).contains("joined value is longer than 65536 characters"));
    }

    @Test
    void errorsOfDroppedRelationsAreNotReportedAgainAsMissingThings() {
        assertThat(Check.errors("+ ( &(type = subjob) (label = a) (site = $(S)) ) ( &(type = link) (between = a b) (rtt = ) )"))
                .containsExactly(
                        "t.rsl:1:42: error: undefined variable \"S\"; define it with (rsl_substitution = (S value)) in the grid section or earlier in this section",
                        "t.rsl:1:88: error: attribute \"rtt\" has no value after '='");
    }
}
