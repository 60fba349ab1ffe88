/* _AdminClientImpl: the administrative client.
 *
 * Each request is sent with librdkafka's background queue as its reply queue, and the
 * concurrent.futures.Future given by the caller as the request's opaque. librdkafka's background
 * thread hands the result event to admin_event_cb, which takes the GIL, converts the result to
 * plain Python values (admin_results.c) and resolves the future, so no poll() is needed.
 *
 * The client keeps one reference to each pending future in `pending` (keyed by its address). A
 * result for a future that is no longer there (failed by close()) is dropped without touching
 * the pointer. close() and dealloc fail whatever is still pending. */
#ifndef CFL_ADMIN_H
#define CFL_ADMIN_H
#include "handle.h"

typedef struct {
    Handle h;              /* first: every Handle function works on an AdminObject */
    PyObject *pending;     /* dict: int(address of future) -> future (one reference each) */
    PyObject *future_type; /* concurrent.futures.Future */
    rd_kafka_queue_t *bgq; /* librdkafka's background queue: where results are delivered */
} AdminObject;

int cfl_admin_init_type(PyObject *module, cfl_state *st);

/* admin_types.c: NewTopic, NewPartitions (optional attributes are NULL until given) and Uuid. */
typedef struct {
    PyObject_HEAD
    PyObject *topic; /* str */
    int num_partitions;
    int replication_factor;
    PyObject *replica_assignment; /* NULL: not given */
    PyObject *config;             /* NULL: not given */
} NewTopicObject;

typedef struct {
    PyObject_HEAD
    PyObject *topic; /* str */
    int new_total_count;
    PyObject *replica_assignment; /* NULL: not given */
} NewPartitionsObject;

/* Add NewTopic, NewPartitions, Uuid and the admin int constants (ACL_*, RESOURCE_*, ...) to the
 * module. */
int cfl_admin_types_init(PyObject *module);

/* The Python value a successful admin result event resolves its future with (see the table in
 * admin_results.c). GIL held. New reference, or NULL with an exception set. */
PyObject *cfl_admin_result(cfl_state *st, rd_kafka_event_t *rkev);

#endif
