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

#endif
