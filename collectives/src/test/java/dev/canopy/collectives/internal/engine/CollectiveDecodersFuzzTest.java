package dev.canopy.collectives.internal.engine;


import dev.canopy.collectives.data.ElementType;
import dev.canopy.collectives.data.IndexedValues;
import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.collectives.data.ValueCodec;
import dev.canopy.collectives.reduce.PartialReduction;
import dev.canopy.collectives.reduce.ReduceOp;
import dev.canopy.core.internal.security.Printable;
import dev.canopy.core.testing.fuzz.DecoderFuzzContract;
import dev.canopy.core.testing.fuzz.FuzzCampaign;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Seeded mutation fuzzing ({@link FuzzCampaign}) of every decoder of collective messages: each may
 * throw {@link MalformedMessageException} and nothing else, and decodes every valid encoding to
 * what it encodes. 10^5 inputs per decoder by default, 10^6 with {@code -Pexhaustive}.
 */
class CollectiveDecodersFuzzTest extends DecoderFuzzContract {

    /** The subtree whose partial results the reduce campaign checks, as a child of a reduction sends them. */
    private static final int[] SUBTREE = {2, 3, 4, 7, 8, 11};
    private static final int SEGMENT_BYTES = 8;

    @Override
    protected Stream<FuzzCampaign<?>> campaigns() {
        return Stream.of(
                FuzzCampaign.of("CollectiveFrame", CollectiveDecodersFuzzTest::randomFrame, Received::encode,
                        Received::decode).rejectingWith(MalformedMessageException.class),
                FuzzCampaign.of("RankBlocks", CollectiveDecodersFuzzTest::randomBlocks, RankBlocks::encode,
                        RankBlocks::decode).rejectingWith(MalformedMessageException.class)
                        .comparedAs(CollectiveDecodersFuzzTest::asMap),
                FuzzCampaign.of("PartialReduction", random -> randomPartial(random, randomRanks(random), false),
                        PartialReduction::encode, PartialReduction::decode)
                        .rejectingWith(MalformedMessageException.class).comparedAs(PartialReduction::runs),
                FuzzCampaign.of("PartialReduction of a subtree", random -> randomPartial(random, SUBTREE, true),
                        PartialReduction::encode, bytes -> PartialReduction.decode(bytes)
                                .requireSubtree(SUBTREE, ReduceOp.Commutativity.RANK_ORDERED, SEGMENT_BYTES))
                        .rejectingWith(MalformedMessageException.class).comparedAs(PartialReduction::runs),
                FuzzCampaign.of("TreeBroadcast.Prefix", CollectiveDecodersFuzzTest::randomPrefix,
                        prefix -> prefix.encode(Buffer.buffer(new byte[prefix.segmentLength(0)])), TreeBroadcast.Prefix::decode)
                        .rejectingWith(MalformedMessageException.class),
                values("ValueCodec.ints", ElementType.INT, bytes -> ValueCodec.encode(ValueCodec.ints(bytes))),
                values("ValueCodec.longs", ElementType.LONG, bytes -> ValueCodec.encode(ValueCodec.longs(bytes))),
                values("ValueCodec.floats", ElementType.FLOAT, bytes -> ValueCodec.encode(ValueCodec.floats(bytes))),
                values("ValueCodec.doubles", ElementType.DOUBLE, bytes -> ValueCodec.encode(ValueCodec.doubles(bytes))),
                values("IndexedValues INT_INDEX", ElementType.INT_INDEX,
                        bytes -> IndexedValues.decode(ElementType.INT_INDEX, bytes).encode()),
                values("IndexedValues DOUBLE_INDEX", ElementType.DOUBLE_INDEX,
                        bytes -> IndexedValues.decode(ElementType.DOUBLE_INDEX, bytes).encode()));
    }

    /** A typed decoder, checked through its re-encoding (arrays have no content equals; NaN bits must survive). */
    private static FuzzCampaign<Buffer> values(String name, ElementType type, FuzzCampaign.Decoder<Buffer> decodeAndEncode) {
        return FuzzCampaign.<Buffer>of(name, random -> {
            byte[] bytes = new byte[random.nextInt(8) * type.size()];
            random.nextBytes(bytes);
            if (type == ElementType.INT_INDEX) {
                for (int i = 0; i + 4 < bytes.length; i += type.size()) {
                    bytes[i] = bytes[i + 1] = bytes[i + 2] = bytes[i + 3] = 0; // the value of an int pair is an int
                }
            }
            return Buffer.buffer(bytes);
        }, bytes -> bytes, decodeAndEncode).rejectingWith(MalformedMessageException.class);
    }

    /** What a member reads from a collective frame: the header, and the abort or the body. */
    record Received(CollectiveFrame.Header header, CollectiveFrame.Abort abort, Buffer body) {

        Buffer encode() {
            return abort != null ? CollectiveFrame.abort(header, abort) : CollectiveFrame.data(header, body);
        }

        static Received decode(Buffer frame) {
            CollectiveFrame.Header header = CollectiveFrame.header(frame);
            return header.kind() == CollectiveFrame.Kind.ABORT
                    ? new Received(header, CollectiveFrame.abortBody(frame), null)
                    : new Received(header, null, CollectiveFrame.body(frame));
        }
    }

    private static Received randomFrame(SplittableRandom random) {
        CollectiveFrame.Kind[] kinds = CollectiveFrame.Kind.values();
        Operation[] operations = Operation.values();
        CollectiveFrame.Header header = new CollectiveFrame.Header(kinds[random.nextInt(kinds.length)],
                operations[random.nextInt(operations.length)], random.nextInt(0x10000), random.nextInt(),
                random.nextLong());
        if (header.kind() == CollectiveFrame.Kind.ABORT) {
            StringBuilder reason = new StringBuilder();
            for (int i = random.nextInt(40); i > 0; i--) {
                reason.append((char) random.nextInt(' ', 0x3000));
            }
            // A reason round-trips once printable: the decoder makes every reason so (Printable).
            return new Received(header, new CollectiveFrame.Abort(random.nextInt(-1, 1000), random.nextInt(1000),
                    Printable.of(reason.toString(), reason.length())), null);
        }
        return new Received(header, null, randomBytes(random, 32));
    }

    private static RankBlocks randomBlocks(SplittableRandom random) {
        RankBlocks.Builder blocks = RankBlocks.builder();
        for (int rank : randomRanks(random)) {
            blocks.put(rank, randomBytes(random, 16));
        }
        return blocks.build();
    }

    private static Map<Integer, Buffer> asMap(RankBlocks blocks) {
        Map<Integer, Buffer> map = new TreeMap<>();
        blocks.ranks().forEach(rank -> map.put(rank, blocks.block(rank)));
        return map;
    }

    /** Ascending ranks, some of them adjacent. */
    private static int[] randomRanks(SplittableRandom random) {
        int[] ranks = new int[1 + random.nextInt(6)];
        int rank = random.nextInt(4);
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = rank;
            rank += 1 + (random.nextBoolean() ? 0 : random.nextInt(5));
        }
        return ranks;
    }

    /** Runs of consecutive {@code ranks}, cut at random where ranks are adjacent (always where they are not). */
    private static PartialReduction randomPartial(SplittableRandom random, int[] ranks, boolean segmentLength) {
        List<int[]> runs = new ArrayList<>();
        int first = ranks[0];
        for (int i = 1; i <= ranks.length; i++) {
            if (i == ranks.length || ranks[i] != ranks[i - 1] + 1 || random.nextInt(3) == 0) {
                runs.add(new int[] {first, ranks[i - 1]});
                first = i < ranks.length ? ranks[i] : first;
            }
        }
        return PartialReduction.decode(encodeRuns(random, runs, segmentLength));
    }

    private static Buffer encodeRuns(SplittableRandom random, List<int[]> runs, boolean segmentLength) {
        Buffer wire = Buffer.buffer().appendInt(runs.size());
        for (int[] run : runs) {
            Buffer value = segmentLength ? randomBytesOf(random, SEGMENT_BYTES) : randomBytes(random, 16);
            wire.appendInt(run[0]).appendInt(run[1]).appendInt(value.length()).appendBuffer(value);
        }
        return wire;
    }

    private static TreeBroadcast.Prefix randomPrefix(SplittableRandom random) {
        int total = random.nextBoolean() ? random.nextInt(64) : random.nextInt(Integer.MAX_VALUE);
        return new TreeBroadcast.Prefix(total, 1 + random.nextInt(48));
    }

    private static Buffer randomBytes(SplittableRandom random, int maxLength) {
        return randomBytesOf(random, random.nextInt(maxLength + 1));
    }

    private static Buffer randomBytesOf(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return Buffer.buffer(bytes);
    }
}
