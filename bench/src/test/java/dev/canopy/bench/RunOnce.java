package dev.canopy.bench;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Runs one benchmark method the way a JMH fork would, but once and untimed: a fresh state object,
 * its {@code @Param} fields set from text as JMH sets them, its {@code @Setup} methods, then the
 * method, with a {@link Blackhole} wherever it takes one.
 */
final class RunOnce {

    private RunOnce() {
    }

    /** A Blackhole outside JMH; JMH asks for this sentence to show the caller knows it is not a real run. */
    static Blackhole blackhole() {
        return new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    }

    /** @return what the benchmark method returned, {@code null} for a void method */
    static Object run(Class<?> benchmarkClass, String methodName, Map<String, String> params) throws Throwable {
        Object state = benchmarkClass.getDeclaredConstructor().newInstance();
        for (Map.Entry<String, String> param : params.entrySet()) {
            setParam(state, benchmarkClass.getDeclaredField(param.getKey()), param.getValue());
        }
        for (Method setup : annotated(benchmarkClass, Setup.class)) {
            invoke(setup, state);
        }
        Method benchmark = Arrays.stream(annotated(benchmarkClass, Benchmark.class))
                .filter(method -> method.getName().equals(methodName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(benchmarkClass.getSimpleName() + " has no @Benchmark " + methodName));
        return invoke(benchmark, state);
    }

    private static Method[] annotated(Class<?> benchmarkClass, Class<? extends java.lang.annotation.Annotation> annotation) {
        return Arrays.stream(benchmarkClass.getMethods()).filter(method -> method.isAnnotationPresent(annotation))
                .toArray(Method[]::new);
    }

    /** Calls {@code method}, passing a Blackhole for each parameter, and rethrows what it threw. */
    private static Object invoke(Method method, Object state) throws Throwable {
        Object[] arguments = new Object[method.getParameterCount()];
        for (int i = 0; i < arguments.length; i++) {
            if (method.getParameterTypes()[i] != Blackhole.class) {
                throw new IllegalArgumentException(method + " takes a " + method.getParameterTypes()[i]
                        + "; run-once knows only Blackhole parameters");
            }
            arguments[i] = blackhole();
        }
        try {
            return method.invoke(state, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void setParam(Object state, Field field, String text) throws IllegalAccessException {
        Class<?> type = field.getType();
        Object value;
        if (type == int.class) {
            value = Integer.parseInt(text);
        } else if (type == long.class) {
            value = Long.parseLong(text);
        } else if (type == String.class) {
            value = text;
        } else if (type.isEnum()) {
            value = enumConstant(type, text);
        } else {
            throw new IllegalArgumentException("@Param " + field.getName() + " of type " + type.getSimpleName()
                    + "; run-once sets int, long, String and enum parameters");
        }
        field.setAccessible(true);
        field.set(state, value);
    }

    private static Object enumConstant(Class<?> type, String name) {
        return Arrays.stream(type.getEnumConstants()).filter(constant -> ((Enum<?>) constant).name().equals(name))
                .findFirst().orElseThrow(() -> new IllegalArgumentException(name + " is not a " + type.getSimpleName()));
    }
}
