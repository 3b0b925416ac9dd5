package dev.canopy.gridconfig.internal.rsl;

/** A place in a level file: 1-based line and column (a tab counts as one column). */
public record Position(int line, int column) {

    public static final Position START = new Position(1, 1);

    @Override
    public String toString() {
        return line + ":" + column;
    }
}
