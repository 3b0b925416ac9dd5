package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Excerpt;
import dev.canopy.gridconfig.Keyword;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/** Suggests the known word closest to a misspelled one, by edit distance of the canonical spellings. */
final class SpellingHint {

    /** Beyond this many known words a hint costs more than it helps (a hostile file can name 100,000 sites). */
    static final int MAX_CANDIDATES = 1000;

    /** Longer words are no typos of a keyword, and their distance table would cost length squared. */
    static final int MAX_WORD = 64;

    private SpellingHint() {
    }

    /**
     * {@code did you mean "heavy_wan"?} when one candidate is close enough to be the intended word:
     * a few edits away, or the written word is the start of it ({@code rtt} for {@code rtt_ms}).
     */
    static Optional<String> closest(String written, Collection<String> candidates) {
        String canonical = Keyword.canonical(written);
        if (candidates.size() > MAX_CANDIDATES || canonical.length() > MAX_WORD) {
            return Optional.empty();
        }
        Optional<String> completion = canonical.length() < 3 ? Optional.empty() : candidates.stream()
                .filter(candidate -> Keyword.canonical(candidate).startsWith(canonical) && !candidate.equals(written))
                .findFirst();
        if (completion.isPresent()) {
            return completion.map(SpellingHint::question);
        }
        int allowed = Math.max(1, Math.min(3, canonical.length() / 3));
        return candidates.stream()
                .filter(candidate -> !candidate.equals(written))
                // the distance is at least the difference in length: skip the table for words that cannot be close
                .filter(candidate -> Math.abs(Keyword.canonical(candidate).length() - canonical.length()) <= allowed)
                .min(Comparator.comparingInt(candidate -> distance(canonical, Keyword.canonical(candidate))))
                .filter(best -> {
                    int distance = distance(canonical, Keyword.canonical(best));
                    // a one-letter word is one edit from every other one-letter word: no evidence of a typo
                    return distance <= allowed && distance < Math.min(canonical.length(), Keyword.canonical(best).length());
                })
                .map(SpellingHint::question);
    }

    private static String question(String candidate) {
        return "did you mean " + Excerpt.quoted(candidate) + "?";
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
