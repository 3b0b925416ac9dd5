package dev.canopy.core.internal.frame;

/** The outcome of decoding a datagram: a frame, or the reason the bytes are not one. */
public sealed interface DecodeResult permits DecodeResult.Decoded, MalformedFrame {

    record Decoded(Frame frame) implements DecodeResult {
    }
}
