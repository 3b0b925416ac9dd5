package dev.canopy.gridconfig;

import dev.canopy.gridconfig.internal.input.BoundedInput;
import dev.canopy.gridconfig.internal.input.InputStalledException;
import dev.canopy.gridconfig.internal.input.InputTooLargeException;
import dev.canopy.gridconfig.internal.print.RslPrinter;
import dev.canopy.gridconfig.internal.validate.GridFileReader;
import dev.canopy.gridconfig.model.GridModel;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Entry points for level files: read one from text, a path or the classpath, and write a model
 * back as RSL. Bad input of any kind comes back as diagnostics in the {@link ParseResult}.
 */
public final class GridConfigs {

    /** The 8-site grid modelled on the MPICH-GX testbed, the grid {@code canopy demo} emulates by default. */
    public static final String DEFAULT_EXAMPLE = "mpich-gx-8site.rsl";

    /** The level files bundled under {@code dev/canopy/gridconfig/examples/}, identical to {@code examples/grids/}. */
    public static final List<String> BUNDLED_EXAMPLES = List.of(DEFAULT_EXAMPLE, "two-site.rsl", "mpich-g2.rsl",
            "thin-uplinks-10site.rsl", "two-site-multicast.rsl");

    /** Larger files are surely not level files; reading them whole would only waste memory. */
    public static final long MAX_FILE_BYTES = 4L * 1024 * 1024;

    private static final String EXAMPLES_RESOURCE = "examples/";

    private GridConfigs() {
    }

    /** Reads level-file text; {@code file} names it in diagnostics and gives the default grid name. */
    public static ParseResult parse(String text, String file) {
        return GridFileReader.read(text, file);
    }

    /** Reads the level file at {@code file} (UTF-8); a missing or unreadable file is a diagnostic too. */
    public static ParseResult load(Path file) {
        return load(file, BoundedInput.DEFAULT_IDLE_TIMEOUT);
    }

    /**
     * Reads the level file at {@code file}, reading at most {@link #MAX_FILE_BYTES} whatever it is
     * (a regular file, a pipe, a device) and giving up when no byte arrives for {@code idleTimeout}.
     */
    public static ParseResult load(Path file, Duration idleTimeout) {
        String name = file.toString();
        try {
            if (Files.isDirectory(file)) {
                return invalidFile(name, "is a directory, not a level file");
            }
            byte[] bytes = BoundedInput.readAll(file, MAX_FILE_BYTES, idleTimeout);
            return parse(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString(), name);
        } catch (NoSuchFileException e) {
            return invalidFile(name, "no such file");
        } catch (CharacterCodingException e) {
            return invalidFile(name, "is not UTF-8 text");
        } catch (InputTooLargeException e) {
            return invalidFile(name, "is larger than " + MAX_FILE_BYTES + " bytes; not a level file");
        } catch (InputStalledException e) {
            return invalidFile(name, e.getMessage());
        } catch (IOException e) {
            return invalidFile(name, "cannot be read: " + Excerpt.of(String.valueOf(e.getMessage())));
        }
    }

    private static ParseResult invalidFile(String name, String message) {
        return ParseResult.invalid(List.of(Diagnostic.ofFile(name, message)));
    }

    /**
     * Reads a bundled example, one of {@link #BUNDLED_EXAMPLES}.
     *
     * @throws IllegalArgumentException if there is no such example
     */
    public static ParseResult loadBundled(String example) {
        return parse(bundledText(example), "classpath:" + example);
    }

    /** The text of a bundled example, e.g. to show or copy it. */
    public static String bundledText(String example) {
        if (!BUNDLED_EXAMPLES.contains(example)) {
            throw new IllegalArgumentException("no bundled level file " + example + "; bundled are " + BUNDLED_EXAMPLES);
        }
        try (InputStream in = GridConfigs.class.getResourceAsStream(EXAMPLES_RESOURCE + example)) {
            if (in == null) {
                throw new IllegalStateException("bundled level file " + example + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read bundled level file " + example, e);
        }
    }

    /**
     * The grid {@code canopy demo} emulates when given no file: the bundled {@link #DEFAULT_EXAMPLE}.
     *
     * @throws IllegalStateException if the bundled file does not check clean (a build defect)
     */
    public static GridModel defaultGrid() {
        return loadBundled(DEFAULT_EXAMPLE).orElseThrow();
    }

    /** The model as a canonical level file; {@code parse(print(m))} gives back {@code m}. */
    public static String print(GridModel model) {
        return RslPrinter.print(model);
    }
}
