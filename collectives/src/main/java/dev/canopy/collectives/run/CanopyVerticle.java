package dev.canopy.collectives.run;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.util.Objects;

/**
 * A Canopy process as a Vert.x verticle, for applications that already run on Vert.x: deploying it joins the
 * job on the application's Vert.x, on this verticle's context ({@link VertxOwner#CALLER}: the session never
 * closes that Vert.x), and the deployment completes once {@link #joined} has. Undeploying it (or closing Vert.x)
 * finishes like {@link CanopySession#close()}, without blocking the event loop.
 *
 * <pre>{@code
 * vertx.deployVerticle(new CanopyVerticle(options) {
 *     protected Future<?> joined(CanopySession session) {
 *         return session.collectives().typed(ArrayType.LONGS)
 *                 .allreduce(new long[] {session.rank()}, BuiltInOp.SUM)
 *                 .onSuccess(sum -> System.out.println("sum of ranks " + sum[0]));
 *     }
 * });
 * }</pre>
 *
 * <p>Everything runs on this verticle's event loop: use the asynchronous {@link CanopySession#collectives()},
 * never the blocking views ({@link CanopySession#blocking}, {@link CanopySession#adoptNewestPlan()}), which refuse
 * to run there.
 */
public abstract class CanopyVerticle extends VerticleBase {

    private final JoinOptions options;
    private CanopySession session;

    protected CanopyVerticle(JoinOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public final Future<?> start() {
        return Canopy.joinAsync(vertx, options, VertxOwner.CALLER)
                .compose(joined -> {
                    session = joined;
                    // A failed deployment is never undeployed: leave here, or the node would stay in the job.
                    return joined(joined).recover(failure -> joined.leaveAsync()
                            .transform(left -> Future.failedFuture(failure)));
                });
    }

    /**
     * Called on this verticle's context once every process has joined; the deployment completes when the
     * returned future does. If it fails, this process leaves the job at once and the deployment fails with it.
     */
    protected abstract Future<?> joined(CanopySession session);

    /** The joined session, or null before {@link #joined} is called. Confined to this verticle's context. */
    protected final CanopySession session() {
        return session;
    }

    @Override
    public Future<?> stop() {
        return session == null ? Future.succeededFuture() : session.closeAsync();
    }
}
