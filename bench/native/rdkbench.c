/* rdkbench: producer and consumer throughput of librdkafka alone, with no Python in the way.
 *
 * The baseline of `make bench`: what the library itself does on this machine and broker, so the
 * Python clients can be read as a fraction of it. Prints one JSON object on stdout with the same
 * keys as the Python workers in bench/.
 *
 *   rdkbench create  --bootstrap H:P --topic T [--partitions 1]
 *   rdkbench produce --bootstrap H:P --topic T -n N [--size S] [--partition P] [--no-dr]
 *   rdkbench consume --bootstrap H:P --topic T -n N [--partition P] [--batch B] [--group G]
 *                    [--prefetch SECONDS]
 *   (all take --timeout SECONDS, the bound on the whole run; default 300)
 *
 * produce: a warm-up message is produced and flushed first (the connection and the topic exist
 * before the clock starts); then N values of S bytes, rd_kafka_poll(0) after each, and a flush.
 * A delivery report callback counts successes and failures unless --no-dr.
 *
 * consume: the partition is assigned from its beginning. --batch B > 1 reads the consumer queue
 * with rd_kafka_consume_batch_queue, asking for min(B, remaining) messages; --batch 1 calls
 * rd_kafka_consumer_poll per message. The clock starts when the first messages arrive, and the
 * messages of that first arrival are not counted (their fetch happened before the clock started);
 * the time until then is reported as startup_seconds. --prefetch S lifts the local queue limits
 * (queued.min.messages, queued.max.messages.kbytes) and sleeps S seconds after the first arrival
 * before starting the clock, so the timed part reads messages that are already local; the queue
 * length at that moment is reported as "prefetched", and reads that came back empty as "stalls".
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <librdkafka/rdkafka.h>

struct options {
    const char *mode;
    const char *bootstrap;
    const char *topic;
    const char *group;
    long long n;
    long size;
    int partition;
    int partitions;
    int batch;
    int dr;
    double timeout;
    double prefetch;
};

static long long queue_full_waits; /* produce: times the local queue was full */

struct dr_counts {
    long long delivered;
    long long failed;
    rd_kafka_resp_err_t first_error;
};

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("rdkbench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* User plus system CPU of the whole process (all librdkafka threads included). */
static double cpu_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static double peak_rss_mb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0; /* ru_maxrss is in KiB on Linux */
}

static int ms_left(double deadline) {
    double left = deadline - now_s();
    if (left <= 0)
        return 0;
    return left > 1e6 ? 1000000000 : (int)(left * 1000.0);
}

static void set_conf(rd_kafka_conf_t *conf, const char *key, const char *value) {
    char errstr[512];
    if (rd_kafka_conf_set(conf, key, value, errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
        die("config %s=%s: %s", key, value, errstr);
}

static rd_kafka_t *new_client(rd_kafka_type_t type, rd_kafka_conf_t *conf) {
    char errstr[512];
    rd_kafka_t *rk = rd_kafka_new(type, conf, errstr, sizeof errstr);
    if (!rk)
        die("rd_kafka_new: %s", errstr);
    return rk;
}

static void print_result(const struct options *o, long long messages, long long bytes,
                         double seconds, double cpu, double startup, long long errors,
                         long long prefetched, long long stalls) {
    printf("{\"module\": \"native\", \"version\": \"rdkbench\", \"librdkafka\": \"%s\", "
           "\"mode\": \"%s\", \"messages\": %lld, \"size\": %ld, \"bytes\": %lld, "
           "\"seconds\": %.6f, \"cpu_seconds\": %.6f, \"startup_seconds\": %.6f, "
           "\"peak_rss_mb\": %.3f, \"msgs_per_s\": %.1f, \"mb_per_s\": %.3f, \"errors\": %lld, "
           "\"prefetched\": %lld, \"stalls\": %lld, \"queue_full\": %lld}\n",
           rd_kafka_version_str(), o->mode, messages, o->size, bytes, seconds, cpu, startup,
           peak_rss_mb(), seconds > 0 ? (double)messages / seconds : 0.0,
           seconds > 0 ? (double)bytes / seconds / 1e6 : 0.0, errors, prefetched, stalls,
           queue_full_waits);
    fflush(stdout);
}

/* ---- create ---------------------------------------------------------------------------- */

static int run_create(const struct options *o) {
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    set_conf(conf, "bootstrap.servers", o->bootstrap);
    rd_kafka_t *rk = new_client(RD_KAFKA_PRODUCER, conf);
    double deadline = now_s() + o->timeout;

    char errstr[512];
    rd_kafka_NewTopic_t *nt = rd_kafka_NewTopic_new(o->topic, o->partitions, 1, errstr, sizeof errstr);
    if (!nt)
        die("NewTopic %s: %s", o->topic, errstr);
    rd_kafka_queue_t *q = rd_kafka_queue_new(rk);
    rd_kafka_AdminOptions_t *opts = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_CREATETOPICS);
    rd_kafka_AdminOptions_set_request_timeout(opts, ms_left(deadline), errstr, sizeof errstr);
    rd_kafka_CreateTopics(rk, &nt, 1, opts, q);

    int rc = 1;
    rd_kafka_event_t *ev = rd_kafka_queue_poll(q, ms_left(deadline) + 1000);
    if (!ev) {
        fprintf(stderr, "rdkbench: CreateTopics: no result in time\n");
    } else if (rd_kafka_event_error(ev)) {
        fprintf(stderr, "rdkbench: CreateTopics: %s\n", rd_kafka_event_error_string(ev));
    } else {
        size_t cnt = 0;
        const rd_kafka_topic_result_t **res =
            rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev), &cnt);
        if (cnt != 1)
            fprintf(stderr, "rdkbench: CreateTopics: %zu results\n", cnt);
        else if (rd_kafka_topic_result_error(res[0]))
            fprintf(stderr, "rdkbench: CreateTopics %s: %s\n", o->topic,
                    rd_kafka_topic_result_error_string(res[0]));
        else
            rc = 0;
    }
    if (ev)
        rd_kafka_event_destroy(ev);
    rd_kafka_AdminOptions_destroy(opts);
    rd_kafka_NewTopic_destroy(nt);
    rd_kafka_queue_destroy(q);
    rd_kafka_destroy(rk);
    if (rc == 0)
        printf("{\"topic\": \"%s\", \"partitions\": %d}\n", o->topic, o->partitions);
    return rc;
}

/* ---- produce --------------------------------------------------------------------------- */

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque) {
    struct dr_counts *c = opaque;
    (void)rk;
    if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
        c->delivered++;
    } else {
        if (c->failed++ == 0)
            c->first_error = m->err;
    }
}

/* Produce one message, serving delivery reports while the local queue is full. Without a delivery
 * report callback there are no events to wake rd_kafka_poll, so it waits in 1 ms steps. */
static int produce_one(rd_kafka_t *rk, rd_kafka_topic_t *rkt, int partition, void *value, size_t len,
                       int wait_ms, double deadline) {
    for (;;) {
        if (rd_kafka_produce(rkt, partition, RD_KAFKA_MSG_F_COPY, value, len, NULL, 0, NULL) == 0)
            return 0;
        rd_kafka_resp_err_t err = rd_kafka_last_error();
        if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
            fprintf(stderr, "rdkbench: produce: %s\n", rd_kafka_err2str(err));
            return -1;
        }
        if (now_s() > deadline) {
            fprintf(stderr, "rdkbench: timed out waiting for queue space\n");
            return -1;
        }
        queue_full_waits++;
        rd_kafka_poll(rk, wait_ms);
    }
}

static int run_produce(const struct options *o) {
    struct dr_counts counts = {0, 0, RD_KAFKA_RESP_ERR_NO_ERROR};
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    set_conf(conf, "bootstrap.servers", o->bootstrap);
    if (o->dr) {
        rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
        rd_kafka_conf_set_opaque(conf, &counts);
    }
    rd_kafka_t *rk = new_client(RD_KAFKA_PRODUCER, conf);
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, o->topic, NULL);
    if (!rkt)
        die("topic %s: %s", o->topic, rd_kafka_err2str(rd_kafka_last_error()));

    /* Warm-up, not timed: connection, metadata and the topic itself. */
    double t_start = now_s();
    double deadline = t_start + o->timeout;
    static char warm[] = "warm-up";
    int wait_ms = o->dr ? 100 : 1;
    if (produce_one(rk, rkt, o->partition, warm, sizeof warm - 1, wait_ms, deadline) != 0)
        return 1;
    if (rd_kafka_flush(rk, 30000) != RD_KAFKA_RESP_ERR_NO_ERROR || counts.failed)
        die("warm-up message was not delivered within 30 s");
    counts.delivered = 0;

    char *value = malloc(o->size > 0 ? (size_t)o->size : 1);
    if (!value)
        die("out of memory");
    memset(value, 'v', o->size > 0 ? (size_t)o->size : 1);

    double cpu0 = cpu_s();
    double t0 = now_s();
    double startup = t0 - t_start;
    for (long long i = 0; i < o->n; i++) {
        if (produce_one(rk, rkt, o->partition, value, (size_t)o->size, wait_ms, deadline) != 0)
            return 1;
        rd_kafka_poll(rk, 0);
    }
    if (o->dr) {
        rd_kafka_flush(rk, ms_left(deadline));
    } else {
        /* With no delivery reports nothing wakes flush's internal rd_kafka_poll, which then
         * sleeps in 10 ms steps; 1 ms flushes wait out at most 1 ms after the last delivery. */
        while (rd_kafka_outq_len(rk) > 0 && now_s() < deadline)
            rd_kafka_flush(rk, 1);
    }
    double elapsed = now_s() - t0;
    double cpu = cpu_s() - cpu0;
    int left = rd_kafka_outq_len(rk);

    if (counts.failed)
        fprintf(stderr, "rdkbench: %lld deliveries failed, first: %s\n", counts.failed,
                rd_kafka_err2str(counts.first_error));
    print_result(o, o->n, o->n * (long long)o->size, elapsed, cpu, startup, counts.failed + left, 0, 0);

    free(value);
    rd_kafka_topic_destroy(rkt);
    rd_kafka_destroy(rk);
    if (left != 0 || counts.failed != 0 || (o->dr && counts.delivered != o->n))
        return 1;
    return 0;
}

/* ---- consume --------------------------------------------------------------------------- */

/* Count a message; returns its payload length, or -1 for an error event (reported, skipped). */
static long message_bytes(const rd_kafka_message_t *m, long long *errors) {
    if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR)
        return (long)m->len;
    if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        if ((*errors)++ < 5)
            fprintf(stderr, "rdkbench: consume: %s\n", rd_kafka_message_errstr(m));
    }
    return -1;
}

static int run_consume(const struct options *o) {
    char group[128];
    if (o->group) {
        snprintf(group, sizeof group, "%s", o->group);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        snprintf(group, sizeof group, "rdkbench-%lld-%09ld", (long long)ts.tv_sec, ts.tv_nsec);
    }
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    set_conf(conf, "bootstrap.servers", o->bootstrap);
    set_conf(conf, "group.id", group);
    set_conf(conf, "auto.offset.reset", "earliest");
    if (o->prefetch > 0) {
        set_conf(conf, "queued.min.messages", "10000000");
        set_conf(conf, "queued.max.messages.kbytes", "2097151");
    }
    rd_kafka_t *rk = new_client(RD_KAFKA_CONSUMER, conf);
    rd_kafka_poll_set_consumer(rk);
    rd_kafka_queue_t *q = rd_kafka_queue_get_consumer(rk);

    double t_start = now_s();
    double deadline = t_start + o->timeout;
    rd_kafka_topic_partition_list_t *parts = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(parts, o->topic, o->partition)->offset = RD_KAFKA_OFFSET_BEGINNING;
    rd_kafka_resp_err_t err = rd_kafka_assign(rk, parts);
    rd_kafka_topic_partition_list_destroy(parts);
    if (err)
        die("assign: %s", rd_kafka_err2str(err));

    int batch = o->batch > 0 ? o->batch : 1;
    rd_kafka_message_t **msgs = calloc((size_t)batch, sizeof *msgs);
    if (!msgs)
        die("out of memory");

    long long got = 0, errors = 0, timed_msgs = 0, timed_bytes = 0, prefetched = 0, stalls = 0;
    double t0 = 0, cpu0 = 0, t_first = 0;
    int started = 0;
    while (got < o->n) {
        if (now_s() > deadline) {
            fprintf(stderr, "rdkbench: timed out after %lld of %lld messages\n", got, o->n);
            break;
        }
        long long want = o->n - got < batch ? o->n - got : batch;
        ssize_t cnt;
        if (batch == 1) {
            rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 1000);
            msgs[0] = m;
            cnt = m ? 1 : 0;
        } else {
            cnt = rd_kafka_consume_batch_queue(q, 1000, msgs, (size_t)want);
            if (cnt < 0)
                die("consume_batch_queue: %s", rd_kafka_err2str(rd_kafka_last_error()));
        }
        if (cnt == 0 && started)
            stalls++;
        long long n_ok = 0, n_bytes = 0;
        for (ssize_t i = 0; i < cnt; i++) {
            long len = message_bytes(msgs[i], &errors);
            if (len >= 0) {
                n_ok++;
                n_bytes += len;
            }
            rd_kafka_message_destroy(msgs[i]);
        }
        got += n_ok;
        if (!started) {
            if (n_ok > 0) {
                started = 1;
                t_first = now_s();
                if (o->prefetch > 0) {
                    struct timespec ts = {(time_t)o->prefetch,
                                          (long)((o->prefetch - (double)(time_t)o->prefetch) * 1e9)};
                    nanosleep(&ts, NULL);
                    prefetched = (long long)rd_kafka_queue_length(q);
                }
                t0 = now_s();
                cpu0 = cpu_s();
            }
        } else {
            timed_msgs += n_ok;
            timed_bytes += n_bytes;
        }
    }
    double elapsed = started ? now_s() - t0 : 0.0;
    double cpu = started ? cpu_s() - cpu0 : 0.0;
    double startup = started ? t_first - t_start : now_s() - t_start;

    print_result(o, timed_msgs, timed_bytes, elapsed, cpu, startup, errors, prefetched, stalls);

    free(msgs);
    rd_kafka_queue_destroy(q);
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    return got >= o->n ? 0 : 1;
}

/* ---- main ------------------------------------------------------------------------------ */

static void usage(void) {
    fputs("usage: rdkbench create|produce|consume --bootstrap H:P --topic T [-n N] [--size S]\n"
          "       [--partition P] [--partitions P] [--batch B] [--group G] [--no-dr] [--prefetch S]\n"
          "       [--timeout S]\n",
          stderr);
    exit(2);
}

static long long parse_ll(const char *s, const char *what, long long min) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || end == s || v < min)
        die("bad %s: %s", what, s);
    return v;
}

int main(int argc, char **argv) {
    struct options o = {0};
    o.partition = RD_KAFKA_PARTITION_UA;
    o.partitions = 1;
    o.size = 100;
    o.batch = 1000;
    o.dr = 1;
    o.timeout = 300.0;
    int partition_set = 0;

    if (argc < 2)
        usage();
    o.mode = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--no-dr")) {
            o.dr = 0;
            continue;
        }
        if (!v)
            usage();
        i++;
        if (!strcmp(a, "--bootstrap"))
            o.bootstrap = v;
        else if (!strcmp(a, "--topic"))
            o.topic = v;
        else if (!strcmp(a, "--group"))
            o.group = v;
        else if (!strcmp(a, "-n"))
            o.n = parse_ll(v, "-n", 1);
        else if (!strcmp(a, "--size"))
            o.size = (long)parse_ll(v, "--size", 0);
        else if (!strcmp(a, "--partition")) {
            o.partition = (int)parse_ll(v, "--partition", -1);
            partition_set = 1;
        } else if (!strcmp(a, "--partitions"))
            o.partitions = (int)parse_ll(v, "--partitions", 1);
        else if (!strcmp(a, "--batch"))
            o.batch = (int)parse_ll(v, "--batch", 1);
        else if (!strcmp(a, "--timeout") || !strcmp(a, "--prefetch")) {
            char *end;
            double d = strtod(v, &end);
            if (*end || end == v || d < 0 || (d == 0 && a[2] == 't'))
                die("bad %s: %s", a, v);
            *(a[2] == 't' ? &o.timeout : &o.prefetch) = d;
        } else
            usage();
    }
    if (!o.bootstrap || !o.topic)
        usage();

    if (!strcmp(o.mode, "create"))
        return run_create(&o);
    if (o.n < 1)
        die("-n is required");
    if (!strcmp(o.mode, "produce"))
        return run_produce(&o);
    if (!strcmp(o.mode, "consume")) {
        if (!partition_set || o.partition < 0)
            o.partition = 0;
        return run_consume(&o);
    }
    usage();
    return 2;
}
