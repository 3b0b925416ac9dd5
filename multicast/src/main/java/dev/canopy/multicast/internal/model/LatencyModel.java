package dev.canopy.multicast.internal.model;

/**
 * The design note's latency model of a reliable multicast broadcast with co-roots, in microseconds.
 *
 * <ul>
 *   <li>binomial tree: {@code T_pp * ceil(log2 n)}</li>
 *   <li>single-root multicast: {@code T_sr = 2 T_cc + T_ud + T_mc} (copy at both ends, post, flight)</li>
 *   <li>a co-root's reliable path: {@code T_rc = 2 T_cc + T_ud + T_pp * ceil(log2(n / s))}; a co-root
 *       finishes at {@code min(T_rc, T_sr)}</li>
 *   <li>root time per message: {@code T_cc + T_ud + T_um * ceil(log2(n / s)) + T_pack * s}: reliable
 *       sends down the binomial tree of the {@code n / s} sub-group heads, ACKs of its own {@code s}</li>
 * </ul>
 *
 * Too many co-roots load the root with reliable sends, too few load each co-root with ACKs; the best
 * sub-group size {@code s} minimises the root's time per message.
 *
 * @param copyMicros          T_cc: copying a small message into or out of a pre-registered buffer
 * @param postMicros          T_ud: posting one unreliable datagram
 * @param multicastMicros     T_mc: multicast flight from send to arrival at every receiver
 * @param pointToPointMicros  T_pp: one point-to-point message, end to end
 * @param reliableSendMicros  T_um: the sender's cost of one reliable point-to-point send
 * @param ackMicros           T_pack: the cost of processing one ACK
 */
public record LatencyModel(double copyMicros, double postMicros, double multicastMicros, double pointToPointMicros,
                           double reliableSendMicros, double ackMicros) {

    /**
     * Illustrative parameters of the 2004 InfiniBand 4X cluster of the published design, not measurements:
     * they reproduce its reported optimum (128 co-roots for 1,024 nodes, i.e. sub-groups of 8) and a
     * small-message ratio to the binomial tree inside its reported 3.86 to 4.86. Replace them with values
     * measured on the running deployment.
     */
    public static final LatencyModel PUBLISHED_INFINIBAND = new LatencyModel(0.5, 1.0, 11.0, 6.0, 2.8, 0.5);

    public LatencyModel {
        for (double value : new double[] {copyMicros, postMicros, multicastMicros, pointToPointMicros,
                reliableSendMicros, ackMicros}) {
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("latency model parameters must be finite and 0 or more: " + this);
            }
        }
    }

    public double binomialMicros(int members) {
        return pointToPointMicros * depth(members);
    }

    public double singleRootMicros() {
        return 2 * copyMicros + postMicros + multicastMicros;
    }

    public double coRootReliableMicros(int members, int subGroupSize) {
        return 2 * copyMicros + postMicros + pointToPointMicros * depth(groups(members, subGroupSize));
    }

    /**
     * Binomial latency over multicast latency: without loss every leaf finishes at T_sr and every co-root at
     * min(T_rc, T_sr) <= T_sr, so the broadcast takes T_sr.
     */
    public double latencyRatioToBinomial(int members) {
        return binomialMicros(members) / singleRootMicros();
    }

    public double rootMicrosPerMessage(int members, int subGroupSize) {
        return copyMicros + postMicros + reliableSendMicros * depth(groups(members, subGroupSize))
                + ackMicros * subGroupSize;
    }

    /** The sub-group size (root or co-root plus its leaves) that minimises the root's time per message. */
    public int bestSubGroupSize(int members) {
        requireMembers(members);
        int best = members;
        for (int s = members; s >= 1; s--) {
            if (rootMicrosPerMessage(members, s) < rootMicrosPerMessage(members, best)) {
                best = s;
            }
        }
        return best;
    }

    /** The model's prediction for {@code members}: best sub-group size, co-roots, and latency against binomial. */
    public Prediction predict(int members) {
        int s = bestSubGroupSize(members);
        return new Prediction(members, s, coRoots(members, s), rootMicrosPerMessage(members, s), singleRootMicros(),
                coRootReliableMicros(members, s), binomialMicros(members), latencyRatioToBinomial(members));
    }

    /**
     * One row of a model run.
     *
     * @param latencyRatio binomial latency divided by multicast latency
     */
    public record Prediction(int members, int subGroupSize, int coRoots, double rootMicrosPerMessage,
                             double multicastMicros, double coRootReliableMicros, double binomialMicros,
                             double latencyRatio) {

        @Override
        public String toString() {
            return String.format("%5d members: sub-groups of %d (%d co-roots), root %.1f us/message, multicast %.1f us "
                            + "(co-root reliable path %.1f us), binomial %.1f us, %.2fx lower latency", members,
                    subGroupSize, coRoots, rootMicrosPerMessage, multicastMicros, coRootReliableMicros, binomialMicros,
                    latencyRatio);
        }
    }

    /** Co-roots for sub-groups of {@code subGroupSize}: every sub-group but the root's has one. */
    public static int coRoots(int members, int subGroupSize) {
        return groups(members, subGroupSize) - 1;
    }

    static int groups(int members, int subGroupSize) {
        requireMembers(members);
        if (subGroupSize < 1) {
            throw new IllegalArgumentException("sub-group size " + subGroupSize + " must be 1 or more");
        }
        return (members + subGroupSize - 1) / subGroupSize;
    }

    /** ceil(log2 n): the rounds of a binomial tree over n members. */
    public static int depth(int members) {
        return members <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(members - 1);
    }

    private static void requireMembers(int members) {
        if (members < 1) {
            throw new IllegalArgumentException("a group has 1 or more members, not " + members);
        }
    }
}
