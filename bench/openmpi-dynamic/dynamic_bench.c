/*
 * Open MPI's side of the dynamic-process benchmark (issue 16): MPI_Comm_spawn latency at the parent root,
 * MPI_Intercomm_merge latency, and inter-communicator bcast from the parent root to the children.
 *
 * Run by run.sh under mpirun with P parent processes:
 *   dynamic_bench RUNS WARMUP BCAST_ITERS SPAWN_LIMIT_S C1 [C2 ...]
 * For each child count C: WARMUP + RUNS spawns of C children (this same program, in child mode). Each spawn is
 * timed at the parent root from a barrier of the parents to MPI_Comm_spawn's return (disconnect not counted);
 * then, on every run, one MPI_Intercomm_merge (timed at the parent root, freed untimed), and, on the last run,
 * BCAST_ITERS inter-communicator bcasts per message size (8 B, 64 KiB, 512 KiB), each closed by a one-int
 * MPI_Reduce from the children to the parent root, so the time at the root covers delivery to every child.
 * Prints one JSON object per line on the parent root; run.sh assembles them.
 *
 * A spawn that has not returned after SPAWN_LIMIT_S seconds is reported as {"kind": "hung", ...} and every parent
 * exits with status 3, so mpirun ends the job (children included) instead of waiting forever: with Debian's Open MPI
 * 4.1.4 and its external PMIx 4.2.2 a spawned child now and then never finishes PMIx_Init (its connection to
 * mpirun's PMIx server), its siblings wait in MPI_Init's fence and the parents in the PMIx_Lookup of
 * MPI_Comm_spawn's connect/accept (openpmix/openpmix#2735: Open MPI 4.1.x with any external PMIx 4.x).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

static const int BCAST_BYTES[] = {8, 65536, 524288};
#define BCAST_SIZES (int) (sizeof(BCAST_BYTES) / sizeof(BCAST_BYTES[0]))

/* The children's side of one spawn: merge, bcasts (on the last run), disconnect. */
static void child(MPI_Comm parent) {
    int flags[2];
    MPI_Bcast(flags, 2, MPI_INT, 0, parent); /* {last run?, bcast iterations} */
    MPI_Comm merged;
    MPI_Intercomm_merge(parent, 1, &merged);
    MPI_Comm_free(&merged);
    if (flags[0]) {
        char *buffer = malloc(BCAST_BYTES[BCAST_SIZES - 1]);
        int one = 1;
        for (int s = 0; s < BCAST_SIZES; s++) {
            for (int it = 0; it < flags[1]; it++) {
                MPI_Bcast(buffer, BCAST_BYTES[s], MPI_BYTE, 0, parent);
                MPI_Reduce(&one, NULL, 1, MPI_INT, MPI_SUM, 0, parent);
            }
        }
        free(buffer);
    }
    MPI_Comm_disconnect(&parent);
}

/* What the watchdog prints: written before each spawn, since a signal handler may not format. */
static char hung_line[256];
static size_t hung_length;

static void spawn_hung(int signal) {
    (void) signal;
    if (hung_length > 0 && write(STDOUT_FILENO, hung_line, hung_length) < 0) {
        /* nothing left to report it with */
    }
    _exit(3);
}

static int compare(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static void report(const char *kind, int parents, int children, int bytes, double *ms, int n) {
    double sum = 0;
    for (int i = 0; i < n; i++) {
        sum += ms[i];
    }
    qsort(ms, n, sizeof(double), compare);
    printf("{\"kind\": \"%s\", \"parents\": %d, \"children\": %d, \"bytes\": %d, \"runs\": %d, \"mean_ms\": %.3f, "
           "\"median_ms\": %.3f, \"min_ms\": %.3f, \"max_ms\": %.3f}\n",
           kind, parents, children, bytes, n, sum / n, ms[n / 2], ms[0], ms[n - 1]);
    fflush(stdout);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        child(parent);
        MPI_Finalize();
        return 0;
    }
    int runs = argc > 5 ? atoi(argv[1]) : 0, warmup = argc > 5 ? atoi(argv[2]) : -1;
    int iters = argc > 5 ? atoi(argv[3]) : 0, limit = argc > 5 ? atoi(argv[4]) : 0;
    if (runs < 1 || warmup < 0 || iters < 1 || limit < 1) {
        fprintf(stderr, "usage: %s RUNS WARMUP BCAST_ITERS SPAWN_LIMIT_S CHILDREN... (RUNS, BCAST_ITERS and"
                " SPAWN_LIMIT_S 1 or more, WARMUP 0 or more)\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int a = 5; a < argc; a++) {
        if (atoi(argv[a]) < 1) {
            fprintf(stderr, "%s: child count '%s' is not 1 or more\n", argv[0], argv[a]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    signal(SIGALRM, spawn_hung);
    int rank, parents;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &parents);
    double *spawn_ms = calloc(runs, sizeof(double)), *merge_ms = calloc(runs, sizeof(double));
    double *bcast_ms = calloc(iters, sizeof(double));
    char *buffer = calloc(1, BCAST_BYTES[BCAST_SIZES - 1]);
    for (int a = 5; a < argc; a++) {
        int children = atoi(argv[a]);
        for (int run = -warmup; run < runs; run++) {
            MPI_Comm inter;
            MPI_Barrier(MPI_COMM_WORLD);
            int length = snprintf(hung_line, sizeof hung_line, "{\"kind\": \"hung\", \"parents\": %d, \"children\": %d, "
                                  "\"spawn\": %d, \"warmup\": %d, \"limit_s\": %d}\n",
                                  parents, children, run + warmup + 1, warmup, limit);
            hung_length = rank == 0 && length > 0 ? (size_t) length : 0;
            fflush(stdout);
            alarm(limit);
            double start = MPI_Wtime();
            MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, children, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                           MPI_ERRCODES_IGNORE);
            double spawned = MPI_Wtime();
            alarm(0);
            int last = run == runs - 1;
            int flags[2] = {last, iters};
            MPI_Bcast(flags, 2, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
            MPI_Comm merged;
            double merge_start = MPI_Wtime();
            MPI_Intercomm_merge(inter, 0, &merged);
            double merge_end = MPI_Wtime();
            MPI_Comm_free(&merged);
            if (run >= 0) {
                spawn_ms[run] = (spawned - start) * 1e3;
                merge_ms[run] = (merge_end - merge_start) * 1e3;
            }
            if (last) {
                int sum;
                for (int s = 0; s < BCAST_SIZES; s++) {
                    for (int it = 0; it < iters; it++) {
                        double t = MPI_Wtime();
                        MPI_Bcast(buffer, BCAST_BYTES[s], MPI_BYTE, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
                        MPI_Reduce(NULL, &sum, 1, MPI_INT, MPI_SUM, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
                        bcast_ms[it] = (MPI_Wtime() - t) * 1e3;
                    }
                    if (rank == 0) {
                        report("inter_bcast_then_reduce", parents, children, BCAST_BYTES[s], bcast_ms, iters);
                    }
                }
            }
            MPI_Comm_disconnect(&inter);
        }
        if (rank == 0) {
            report("spawn", parents, children, 0, spawn_ms, runs);
            report("merge", parents, children, 0, merge_ms, runs);
        }
    }
    free(spawn_ms);
    free(merge_ms);
    free(bcast_ms);
    free(buffer);
    MPI_Finalize();
    return 0;
}
