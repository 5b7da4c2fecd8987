/* raw_chain: the peer of `bus-flood touch`. The same processes in the same topology, in raw libzmq
 * with no work: a flood process (a publisher thread and a subscriber thread, like bus-flood), an
 * XSUB/XPUB proxy (like bus-proxy, XPUB_VERBOSE on), and two forwarders standing in for
 * gesture-recognizer and component-host:
 *
 *   flood --touch/--> proxy --> forward touch/->gesture/ --> proxy --> forward gesture/->ui/ --> proxy
 *     ^                                                                                           |
 *     +------------------------- touch/, gesture/, ui/ (the flood's own subscriber) <-------------+
 *
 * Every message is three frames (topic, a header, a payload) of the sizes bus-flood measured; the
 * forwarders copy the header, which holds the flood's sequence number and send time, so the
 * subscriber counts gaps and end-to-end latency on every stream. Socket options match UIBus's
 * (high-water marks of 10 000 at the ends and 100 000 in the proxy; PUBs drop when full, as UIBus
 * publishers do).
 *
 * usage: raw_chain proxy IN OUT
 *        raw_chain forward IN OUT FROM TO PAYLOAD_BYTES
 *        raw_chain flood IN OUT RATE SECONDS TOUCH_BYTES HEADER_BYTES
 * The forwarders print "ready" once connected; the flood prints one JSON object.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
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

static void sleep_until(uint64_t deadline) {
    struct timespec ts = { (time_t)(deadline / 1000000000u), (long)(deadline % 1000000000u) };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
}

static void *socket_with_hwm(void *context, int type) {
    void *socket = zmq_socket(context, type);
    int hwm = 10000, linger = 0;
    zmq_setsockopt(socket, type == ZMQ_SUB ? ZMQ_RCVHWM : ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(socket, ZMQ_LINGER, &linger, sizeof linger);
    return socket;
}

/* Receives one message: its first frame into `topic` (NUL-terminated), its second into `header`.
 * Returns the header's size, or -1. */
static int receive3(void *socket, char *topic, size_t topic_size, char *header, size_t header_size, int flags) {
    zmq_msg_t msg;
    zmq_msg_init(&msg);
    int header_length = 0;
    for (int frame = 0;; frame++) {
        if (zmq_msg_recv(&msg, socket, frame == 0 ? flags : 0) < 0) { zmq_msg_close(&msg); return -1; }
        size_t size = zmq_msg_size(&msg);
        if (frame == 0) {
            size = size < topic_size - 1 ? size : topic_size - 1;
            memcpy(topic, zmq_msg_data(&msg), size);
            topic[size] = 0;
        } else if (frame == 1) {
            header_length = (int)(size < header_size ? size : header_size);
            memcpy(header, zmq_msg_data(&msg), (size_t)header_length);
        }
        if (!zmq_msg_more(&msg)) break;
    }
    zmq_msg_close(&msg);
    return header_length;
}

static void send3(void *socket, const char *topic, const char *header, size_t header_size, const char *payload,
                  size_t payload_size) {
    zmq_send(socket, topic, strlen(topic), ZMQ_SNDMORE);
    zmq_send(socket, header, header_size, ZMQ_SNDMORE);
    zmq_send(socket, payload, payload_size, 0);
}

static int proxy(const char *in, const char *out) {
    void *context = zmq_ctx_new();
    void *xsub = zmq_socket(context, ZMQ_XSUB), *xpub = zmq_socket(context, ZMQ_XPUB);
    int verbose = 1, hwm = 100000; /* bus-proxy's settings (BusProxy.defaultHighWaterMark) */
    int64_t maximum = 16 << 20;
    zmq_setsockopt(xsub, ZMQ_RCVHWM, &hwm, sizeof hwm);
    zmq_setsockopt(xsub, ZMQ_MAXMSGSIZE, &maximum, sizeof maximum);
    zmq_setsockopt(xpub, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(xpub, ZMQ_XPUB_VERBOSE, &verbose, sizeof verbose);
    if (zmq_bind(xsub, in) != 0 || zmq_bind(xpub, out) != 0) { perror("zmq_bind"); return 1; }
    printf("ready\n");
    fflush(stdout);
    zmq_proxy(xsub, xpub, NULL);
    return 0;
}

/* Re-publishes every message under FROM as TO + the rest of its topic, with a payload of SIZE. */
static int forward(const char *in, const char *out, const char *from, const char *to, size_t size) {
    void *context = zmq_ctx_new();
    void *sub = socket_with_hwm(context, ZMQ_SUB), *pub = socket_with_hwm(context, ZMQ_PUB);
    zmq_setsockopt(sub, ZMQ_SUBSCRIBE, from, strlen(from));
    zmq_connect(sub, out);
    zmq_connect(pub, in);
    printf("ready\n");
    fflush(stdout);
    char topic[256], header[256], out_topic[512], *payload = calloc(1, size);
    for (;;) {
        int header_size = receive3(sub, topic, sizeof topic, header, sizeof header, 0);
        if (header_size < 0) continue;
        snprintf(out_topic, sizeof out_topic, "%s%s", to, topic + strlen(from));
        send3(pub, out_topic, header, (size_t)header_size, payload, size);
    }
    return 0;
}

enum { TOUCH, GESTURE, UI, STREAMS };
static const char *stream_prefix[STREAMS] = { "touch/d0/", "gesture/d0/", "ui/d0/" };

struct sink {
    void *context;
    const char *out;
    long expected; /* set by the sender when it is done */
    atomic_int ready, sending_done;
    long received[STREAMS], lost[STREAMS];
    uint64_t last_seq[STREAMS];
    uint64_t *latencies; /* end to end at gesture/ */
    long latency_count;
};

static void *drain(void *argument) {
    struct sink *sink = argument;
    void *sub = socket_with_hwm(sink->context, ZMQ_SUB);
    zmq_setsockopt(sub, ZMQ_SUBSCRIBE, "touch/", 6);
    zmq_setsockopt(sub, ZMQ_SUBSCRIBE, "gesture/", 8);
    zmq_setsockopt(sub, ZMQ_SUBSCRIBE, "ui/", 3);
    zmq_connect(sub, sink->out);
    int timeout = 500;
    zmq_setsockopt(sub, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    char topic[256], header[256];
    for (;;) {
        if (receive3(sub, topic, sizeof topic, header, sizeof header, 0) < 0) {
            if (atomic_load(&sink->sending_done)) break; /* 500 ms quiet after the last message sent */
            continue;
        }
        uint64_t now = now_ns(), seq, sent;
        memcpy(&seq, header, 8);
        memcpy(&sent, header + 8, 8);
        if (strstr(topic, "/warm/")) {
            if (topic[0] == 'u') atomic_store(&sink->ready, 1); /* the whole chain carries messages */
            continue;
        }
        for (int s = 0; s < STREAMS; s++) {
            if (strcmp(topic, stream_prefix[s]) != 0) continue;
            sink->received[s]++;
            if (seq > sink->last_seq[s] + 1) sink->lost[s] += (long)(seq - sink->last_seq[s] - 1);
            sink->last_seq[s] = seq;
            if (s == GESTURE) sink->latencies[sink->latency_count++] = now - sent;
        }
        if (atomic_load(&sink->sending_done) && sink->received[UI] + sink->lost[UI] >= sink->expected
            && sink->received[GESTURE] + sink->lost[GESTURE] >= sink->expected) break;
    }
    zmq_close(sub);
    return NULL;
}

static int compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double percentile_us(const uint64_t *sorted, long count, double fraction) {
    if (count == 0) return 0;
    long rank = (long)(fraction * (double)count + 0.999999999) - 1;
    rank = rank < 0 ? 0 : rank >= count ? count - 1 : rank;
    return (double)sorted[rank] / 1e3;
}

static int flood(const char *in, const char *out, double rate, double seconds, size_t size, size_t header_size) {
    long count = (long)(rate * seconds + 0.5);
    struct sink sink = { .context = zmq_ctx_new(), .out = out, .expected = count };
    sink.latencies = calloc((size_t)count + 1, sizeof(uint64_t));
    pthread_t thread;
    pthread_create(&thread, NULL, drain, &sink);
    void *pub = socket_with_hwm(sink.context, ZMQ_XPUB);
    zmq_connect(pub, in);
    char subscription[256];
    zmq_recv(pub, subscription, sizeof subscription, 0);
    header_size = header_size < 16 ? 16 : header_size;
    char *header = calloc(1, header_size), *payload = calloc(1, size);
    /* Warm-up messages until one has come back through both forwarders to the subscriber. */
    while (!atomic_load(&sink.ready)) {
        send3(pub, "touch/warm/", header, header_size, payload, size);
        sleep_until(now_ns() + 10000000u);
    }
    uint64_t start = now_ns();
    long sent = 0;
    while (sent < count) {
        long due = (long)((double)(now_ns() - start) * rate / 1e9) + 1;
        if (due > count) due = count;
        for (; sent < due; sent++) {
            uint64_t seq = (uint64_t)sent + 1, stamp = now_ns();
            memcpy(header, &seq, 8);
            memcpy(header + 8, &stamp, 8);
            send3(pub, "touch/d0/", header, header_size, payload, size);
        }
        if (sent < count) sleep_until(start + (uint64_t)((double)sent * 1e9 / rate));
    }
    double elapsed = (double)(now_ns() - start) / 1e9;
    atomic_store(&sink.sending_done, 1);
    pthread_join(thread, NULL);
    qsort(sink.latencies, (size_t)sink.latency_count, sizeof(uint64_t), compare);
    long lost = 0, unaccounted = 0;
    for (int s = 0; s < STREAMS; s++) {
        lost += sink.lost[s];
        unaccounted += count - sink.received[s] - sink.lost[s];
    }
    printf("{\"peer\":\"raw-libzmq-chain\",\"sent\":%ld,\"touch\":%ld,\"gesture\":%ld,\"ui\":%ld,\"lost\":%ld,"
           "\"unaccounted\":%ld,\"seconds\":%.3f,\"rate_per_s\":%.0f,\"p50_us\":%.0f,\"p99_us\":%.0f,"
           "\"p999_us\":%.0f,\"max_us\":%.0f}\n",
           count, sink.received[TOUCH], sink.received[GESTURE], sink.received[UI], lost, unaccounted, elapsed,
           (double)sink.received[GESTURE] / elapsed, percentile_us(sink.latencies, sink.latency_count, 0.5),
           percentile_us(sink.latencies, sink.latency_count, 0.99),
           percentile_us(sink.latencies, sink.latency_count, 0.999),
           percentile_us(sink.latencies, sink.latency_count, 1.0));
    zmq_close(pub);
    zmq_ctx_term(sink.context);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "proxy") == 0) return proxy(argv[2], argv[3]);
    if (argc == 7 && strcmp(argv[1], "forward") == 0)
        return forward(argv[2], argv[3], argv[4], argv[5], (size_t)atol(argv[6]));
    if (argc == 8 && strcmp(argv[1], "flood") == 0)
        return flood(argv[2], argv[3], atof(argv[4]), atof(argv[5]), (size_t)atol(argv[6]), (size_t)atol(argv[7]));
    fprintf(stderr, "usage: raw_chain proxy IN OUT\n"
                    "       raw_chain forward IN OUT FROM TO PAYLOAD_BYTES\n"
                    "       raw_chain flood IN OUT RATE SECONDS TOUCH_BYTES HEADER_BYTES\n");
    return 2;
}
