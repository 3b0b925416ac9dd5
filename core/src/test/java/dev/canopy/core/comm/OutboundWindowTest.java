package dev.canopy.core.comm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.comm.OutboundWindow.Failure;
import dev.canopy.core.comm.OutboundWindow.Mode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sender's side of the flow control, without sockets: which way each send goes, and when. */
class OutboundWindowTest {

    private static final int EAGER_LIMIT = 16 << 10;

    private final List<String> log = new ArrayList<>();
    private final OutboundWindow window = new OutboundWindow(EAGER_LIMIT);

    private OutboundWindow.PendingSend send(String name, int size) {
        return new OutboundWindow.PendingSend() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public void start(Mode mode) {
                log.add(name + " " + mode);
            }

            @Override
            public void fail(Failure failure, String reason) {
                log.add(name + " " + failure + " " + reason);
            }
        };
    }

    @Test
    void smallPayloadsGoEagerAndLargeOnesAreAnnounced() {
        window.submit(send("small", EAGER_LIMIT));
        window.submit(send("large", EAGER_LIMIT + 1));
        assertThat(log).containsExactly("small EAGER", "large RENDEZVOUS");
        assertThat(window.credit()).isEqualTo(FlowProtocol.INITIAL_CREDIT - FlowProtocol.eagerCost(EAGER_LIMIT)
                - FlowProtocol.ENVELOPE_COST);
    }

    @Test
    void eagerMessagesLeaveTheReserveToAnnouncementsThenSendsWaitInOrderForCredit() {
        int eager = 0;
        while (window.credit() - FlowProtocol.eagerCost(EAGER_LIMIT) >= FlowProtocol.RENDEZVOUS_RESERVE) {
            window.submit(send("e" + eager++, EAGER_LIMIT));
        }
        window.submit(send("short of eager credit", EAGER_LIMIT));
        assertThat(log).last().isEqualTo("short of eager credit RENDEZVOUS");
        while (window.credit() >= FlowProtocol.ENVELOPE_COST) {
            window.submit(send("announced", EAGER_LIMIT));
        }
        log.clear();
        window.submit(send("first waiting", 10));
        window.submit(send("second waiting", 1 << 20));
        assertThat(log).isEmpty();
        assertThat(window.waitingSends()).isEqualTo(2);

        window.grant(FlowProtocol.ENVELOPE_COST);
        assertThat(log).containsExactly("first waiting RENDEZVOUS");
        window.grant(FlowProtocol.INITIAL_CREDIT);
        assertThat(log).containsExactly("first waiting RENDEZVOUS", "second waiting RENDEZVOUS");
    }

    @Test
    void aFailedWindowFailsWaitingAndLaterSendsAndWithdrawnSendsLeaveTheQueue() {
        window.grant(-window.credit());
        OutboundWindow.PendingSend withdrawn = send("withdrawn", 1);
        window.submit(withdrawn);
        window.submit(send("waiting", 1));
        assertThat(window.withdraw(s -> s == withdrawn)).containsExactly(withdrawn);
        window.fail(Failure.DEPARTED, "gone");
        window.submit(send("later", 1));
        assertThat(log).containsExactly("waiting DEPARTED gone", "later DEPARTED gone");
    }
}
