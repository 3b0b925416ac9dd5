/**
 * JMH micro-benchmarks of Canopy's hot, allocation-sensitive paths: the frame codec and stream
 * decoder, the element-wise reduce kernels and partial reductions, the rank blocks of gathers and
 * scatters, and the tree planners. Build with {@code mvn -B -pl bench -am package -DskipTests}, run
 * with {@code java -jar bench/target/benchmarks.jar} (JMH's options apply; {@code -prof gc} adds
 * bytes allocated per operation).
 */
package dev.canopy.bench;
