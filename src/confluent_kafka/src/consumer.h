/* Consumer: subscriptions and assignments, poll/consume, offsets, rebalance callbacks. */
#ifndef CFL_CONSUMER_H
#define CFL_CONSUMER_H
#include "handle.h"

int cfl_consumer_init_type(PyObject *module, cfl_state *st);

/* librdkafka callbacks the consumer registers (handle.c sets them for consumer handles). */
void cfl_consumer_rebalance_cb(rd_kafka_t *rk, rd_kafka_resp_err_t err,
                               rd_kafka_topic_partition_list_t *partitions, void *opaque);
void cfl_consumer_commit_cb(rd_kafka_t *rk, rd_kafka_resp_err_t err,
                            rd_kafka_topic_partition_list_t *offsets, void *opaque);

/* Shared with consumer_arrow.c. */
/* num_messages (None: dflt) checked against the batch limit. 0, or -1 with ValueError/TypeError. */
int cfl_consumer_num_messages(PyObject *obj, Py_ssize_t dflt, Py_ssize_t *out);
/* Up to `want` records within timeout_ms, serving callbacks; *got of them in out[]. Returns
 * cfl_serve's result (-1: a callback raised, the records fetched so far are still in out[]). */
int cfl_consumer_fetch_records(Handle *self, Py_ssize_t want, int timeout_ms, rd_kafka_message_t **out,
                               Py_ssize_t *got);
/* The Message of a record (the record stays the caller's). */
PyObject *cfl_consumer_message(Handle *self, rd_kafka_message_t *rkm);
/* Up to `want` Messages, those left by an earlier call first (then nothing new is fetched). */
PyObject *cfl_consumer_fetch(Handle *self, Py_ssize_t want, int timeout_ms);
/* Keep Messages for the next poll/consume: at the end of the stash, or at its front. */
void cfl_consumer_stash(Handle *self, PyObject *list, int front);
/* How many Messages the stash holds now (threads share it). */
Py_ssize_t cfl_consumer_stash_size(Handle *self);
/* Consumer.consume_arrow (consumer_arrow.c). */
PyObject *cfl_consumer_consume_arrow(Handle *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

#endif
