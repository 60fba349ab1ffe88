/* Producer: produce, poll/flush, purge, transactions. */
#ifndef CFL_PRODUCER_H
#define CFL_PRODUCER_H
#include "handle.h"

int cfl_producer_init_type(PyObject *module, cfl_state *st);

/* Shared by produce() and produce_batch() (produce_batch.c). */

/* One message's produce() arguments (borrowed; NULL or None when not given). */
typedef struct {
    PyObject *topic, *value, *key, *partition, *callback, *timestamp, *headers;
    PyObject *opaque; /* asyncio layer: the report calls callback(opaque, err, msg) */
    int resolve;      /* _produce_future(): callback is its spec tuple (see MsgRef.resolve) */
} ProduceArgs;

/* Enqueue one message from Python arguments. 0, or -1 with an exception set (BufferError when
 * the queue is full); *rd_err holds librdkafka's code then, or 0 for an argument error. */
int cfl_produce_one(Handle *h, cfl_state *st, const ProduceArgs *a, rd_kafka_resp_err_t *rd_err);

/* Enqueue one message. hdrs and ref become librdkafka's on success; on failure hdrs is
 * destroyed and ref stays the caller's. 0, or -1 as for cfl_produce_one. */
int cfl_produce_enqueue(Handle *h, cfl_state *st, rd_kafka_topic_t *rkt, int32_t partition, int msgflags,
                        const void *value, size_t value_len, const void *key, size_t key_len, int64_t timestamp,
                        rd_kafka_headers_t *hdrs, MsgRef *ref, rd_kafka_resp_err_t *rd_err);

/* The cached rd_kafka_topic_t of a topic name (borrowed; lives as long as the client). */
rd_kafka_topic_t *cfl_producer_topic(Handle *h, cfl_state *st, PyObject *topic);

/* An int argument in [lo, hi] (None or NULL: dflt). 0, or -1 with TypeError/ValueError. */
int cfl_int_arg(PyObject *obj, const char *what, long long dflt, long long lo, long long hi, long long *out);

/* str/bytes/buffer as a new bytes object; NULL for None/NULL (no exception) or on error. */
PyObject *cfl_as_bytes(PyObject *obj, const char *what);

PyObject *cfl_producer_produce_batch(Handle *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

#endif
