/* wake_latency: what one wake-up of a sleeping process costs on this machine, the floor under
 * every hop of the pipeline (each message wakes several threads: the sender's ZeroMQ I/O thread,
 * the proxy's, the receiver's I/O thread and the receiver itself).
 *
 * Two processes pass one byte back and forth over pipes, the first waiting 50 µs between round
 * trips so the second is asleep when the byte arrives. Printed as one JSON object: the round trip
 * (two wake-ups) p50 / p99 in µs with the two processes on different cores and on the same core.
 *
 * usage: wake_latency [ROUND_TRIPS]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
}

static int compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Round trips between a process on core 0 and one on `other`; fills `p50` and `p99` in µs. */
static void measure(int other, int count, double *p50, double *p99) {
    int to_child[2], to_parent[2];
    if (pipe(to_child) != 0 || pipe(to_parent) != 0) { perror("pipe"); exit(1); }
    pid_t child = fork();
    if (child == 0) {
        close(to_child[1]);  /* so the parent's close ends the loop below */
        pin(other);
        char byte;
        while (read(to_child[0], &byte, 1) == 1) {
            if (write(to_parent[1], &byte, 1) != 1) break;
        }
        _exit(0);
    }
    pin(0);
    uint64_t *trips = calloc((size_t)count, sizeof(uint64_t));
    char byte = 'x';
    struct timespec pause = { 0, 50000 };
    for (int i = 0; i < count; i++) {
        uint64_t start = now_ns();
        if (write(to_child[1], &byte, 1) != 1 || read(to_parent[0], &byte, 1) != 1) { perror("pipe"); exit(1); }
        trips[i] = now_ns() - start;
        nanosleep(&pause, NULL);
    }
    close(to_child[1]);
    waitpid(child, NULL, 0);
    close(to_child[0]), close(to_parent[0]), close(to_parent[1]);
    qsort(trips, (size_t)count, sizeof(uint64_t), compare);
    *p50 = (double)trips[count / 2] / 1e3;
    *p99 = (double)trips[(long)count * 99 / 100] / 1e3;
    free(trips);
}

int main(int argc, char **argv) {
    int count = argc > 1 ? atoi(argv[1]) : 20000;
    if (count < 100) { fprintf(stderr, "wake_latency: ROUND_TRIPS must be at least 100\n"); return 2; }
    double cross50, cross99, same50, same99;
    measure(sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0, count, &cross50, &cross99);
    measure(0, count, &same50, &same99);
    printf("{\"cross_core_p50_us\": %.1f, \"cross_core_p99_us\": %.1f, \"same_core_p50_us\": %.1f, "
           "\"same_core_p99_us\": %.1f, \"round_trips\": %d}\n", cross50, cross99, same50, same99, count);
    return 0;
}
