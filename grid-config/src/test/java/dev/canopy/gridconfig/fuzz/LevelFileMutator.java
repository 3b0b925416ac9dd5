package dev.canopy.gridconfig.fuzz;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Makes level-file text for fuzzing from one seed: random characters, random token sequences, and
 * valid files with a few edits, some of them hostile (runs of parentheses, huge tokens, control
 * characters). The same seed gives the same input, so a failure is reproduced from its seed alone.
 */
final class LevelFileMutator {

    private static final String CHARS = "()&+|=!<>\"'$#* \n\t\rabz019._-:/é\u001b\u0000";

    /** Pieces of real level files, so that random sequences often get deep into the checks. */
    private static final List<String> TOKENS = List.of("+", "&", "(", ")", "(", ")", "=", "!=", "<", ">=", "$(", "#", "(*", "*)",
            "\"", "'", "|", "type", "grid", "subjob", "link", "label", "count", "hosts", "site", "wan_group", "lan_id",
            "cluster", "fabric", "ib", "levels", "heavy_wan", "hlot", "lan", "host", "local", "thresholds_ms",
            "rsl_substitution", "environment", "GLOBUS_LAN_ID", "GLOBUS_DUROC_SUBJOB_INDEX", "between", "rtt_ms",
            "loss", "bandwidth_mbps", "direction", "one_way", "uplink_mbps", "nic_mbps", "resourceManagerContact", "executable",
            "\"a\"", "\"b\"", "'h:2'", "0", "1", "4", "-3", "2.5", "1e999", "99999999999", "a", "b", "X", ")(", "$(A)", "x#y");

    private static final List<String> SEEDS = List.of(
            "+ ( &(type = subjob) (label = \"alpha\") (count = 2) ) ( &(type = subjob) (label = \"beta\") (count = 2) )"
                    + " ( &(type = link) (between = \"alpha\" \"beta\") (rtt_ms = 40) )",
            "+ ( &(type = grid) (name = g) (rsl_substitution = (S s1) (T $(S)#\"-2\")) (levels = (heavy_wan mst) (lan binomial))"
                    + " (thresholds_ms = (lan 3) (light_wan 20)) ) ( &(type = subjob) (label = $(S)) (count = 3) (hosts = \"h1:2\" 'h2') )"
                    + " ( &(type = subjob) (label = $(T)) (site = $(T)) (fabric = udp_multicast) )"
                    + " ( &(type = link) (between = $(S) $(T)) (rtt_ms = 10) (loss = 0.1) (direction = one_way) )",
            "+ ( &(resourceManagerContact = \"grid.kut.example/jobmanager-pbs\") (count = 4) (label = \"kut\")"
                    + " (environment = (GLOBUS_LAN_ID \"kut-lan\") (GLOBUS_DUROC_SUBJOB_INDEX 1)) (jobtype = mpi) )",
            "&(count = 4)(label = x)(executable = $(HOME)#\"/bin\")(rsl_substitution = (HOME \"/home/me\"))");

    private final SplittableRandom random;

    LevelFileMutator(long seed) {
        this.random = new SplittableRandom(seed);
    }

    String next() {
        return switch (random.nextInt(4)) {
            case 0 -> characters(1 + random.nextInt(120));
            case 1 -> tokens(1 + random.nextInt(40));
            default -> mutated();
        };
    }

    private String characters(int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(CHARS.charAt(random.nextInt(CHARS.length())));
        }
        return text.toString();
    }

    private String tokens(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(TOKENS.get(random.nextInt(TOKENS.size()))).append(random.nextInt(8) == 0 ? "" : " ");
        }
        return text.toString();
    }

    /** Runs of parentheses or joins, now and then thousands long: what blew the stack of the recursive parser. */
    private String hostileRun() {
        int length = random.nextInt(100) == 0 ? 5_000 + random.nextInt(15_000) : 1 + random.nextInt(100);
        return switch (random.nextInt(4)) {
            case 0 -> "(".repeat(length);
            case 1 -> ")".repeat(length);
            case 2 -> "x # ".repeat(length) + "x";
            default -> ")".repeat(length) + " ( &(a = " + "(".repeat(length);
        };
    }

    /** A valid file with one to six edits: deletions, insertions, duplications, swaps, and now and then a hostile run. */
    private String mutated() {
        StringBuilder text = new StringBuilder(SEEDS.get(random.nextInt(SEEDS.size())));
        int edits = 1 + random.nextInt(6);
        for (int i = 0; i < edits && text.length() > 0; i++) {
            int at = random.nextInt(text.length());
            int length = Math.min(text.length() - at, 1 + random.nextInt(random.nextBoolean() ? 3 : 40));
            switch (random.nextInt(7)) {
                case 0 -> text.delete(at, at + length);
                case 1 -> text.insert(at, TOKENS.get(random.nextInt(TOKENS.size())));
                case 2 -> text.insert(at, text.substring(at, at + length));
                case 3 -> text.setCharAt(at, CHARS.charAt(random.nextInt(CHARS.length())));
                case 4 -> {
                    int other = random.nextInt(text.length());
                    char c = text.charAt(at);
                    text.setCharAt(at, text.charAt(other));
                    text.setCharAt(other, c);
                }
                case 5 -> text.insert(at, hostileRun());
                default -> text.insert(at, random.nextInt(50) == 0 ? "w".repeat(2_000 + random.nextInt(8_000)) : "# x");
            }
        }
        return text.toString();
    }
}
