package dev.canopy.collectives.run;

/** Who closes the Vert.x instance a {@link CanopySession} runs on when the session ends. */
public enum VertxOwner {
    /** The session made it (or was handed it to keep): closing the session closes it. */
    SESSION,
    /** The program's own Vert.x (a verticle's, an application's): the session leaves it open and its handlers alone. */
    CALLER
}
