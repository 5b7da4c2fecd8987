/* raw_hop: the peer of `bus-bench hop`. One ipc hop, XPUB -> SUB, in two threads of one
 * process (the SUB binds, the XPUB connects), with raw libzmq and no work: the same three frames (topic, a 96-byte stand-in
 * header, payload) that a UIBus message carries. XPUB_NODROP makes the sender wait instead of
 * dropping, so the rate is what the hop sustains. Prints one JSON object.
 *
 * usage: raw_hop SIZE COUNT ENDPOINT
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct job { void *context; const char *endpoint; long count; uint64_t first, last; };

static void *receive(void *argument) {
    struct job *job = argument;
    void *sub = zmq_socket(job->context, ZMQ_SUB);
    int hwm = 10000;
    zmq_setsockopt(sub, ZMQ_RCVHWM, &hwm, sizeof hwm);
    zmq_setsockopt(sub, ZMQ_SUBSCRIBE, "bench/", 6);
    if (zmq_bind(sub, job->endpoint) != 0) { perror("zmq_bind"); exit(1); }
    zmq_msg_t msg;
    zmq_msg_init(&msg);
    for (long received = 0; received < job->count; received++) {
        int more;
        do {
            if (zmq_msg_recv(&msg, sub, 0) < 0) { perror("zmq_msg_recv"); exit(1); }
            more = zmq_msg_more(&msg);
        } while (more);
        if (received == 0) job->first = now_ns();
    }
    job->last = now_ns();
    zmq_msg_close(&msg);
    zmq_close(sub);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: raw_hop SIZE COUNT ENDPOINT\n"); return 2; }
    size_t size = (size_t)atol(argv[1]);
    struct job job = { zmq_ctx_new(), argv[3], atol(argv[2]), 0, 0 };
    void *pub = zmq_socket(job.context, ZMQ_XPUB);
    int hwm = 10000, nodrop = 1;
    zmq_setsockopt(pub, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(pub, ZMQ_XPUB_NODROP, &nodrop, sizeof nodrop);
    pthread_t thread;
    pthread_create(&thread, NULL, receive, &job);
    zmq_connect(pub, job.endpoint);
    char subscription[64];
    zmq_recv(pub, subscription, sizeof subscription, 0); /* wait for the subscriber */
    char *header = calloc(1, 96), *payload = calloc(1, size);
    for (long sent = 0; sent < job.count; sent++) {
        zmq_send(pub, "bench/d0/", 9, ZMQ_SNDMORE);
        zmq_send(pub, header, 96, ZMQ_SNDMORE);
        zmq_send(pub, payload, size, 0);
    }
    pthread_join(thread, NULL);
    double seconds = (double)(job.last - job.first) / 1e9;
    printf("{\"peer\":\"raw-libzmq\",\"size\":%zu,\"count\":%ld,\"rate_per_s\":%.0f}\n", size, job.count,
           (double)(job.count - 1) / seconds);
    zmq_close(pub);
    zmq_ctx_term(job.context);
    return 0;
}
