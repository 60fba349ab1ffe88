/* TopicPartition and conversions to and from rd_kafka_topic_partition_list_t. */
#ifndef CFL_TOPIC_PARTITION_H
#define CFL_TOPIC_PARTITION_H
#include "module.h"

typedef struct {
    PyObject_HEAD
    PyObject *topic;    /* str */
    PyObject *metadata; /* str or NULL */
    PyObject *error;    /* KafkaError or NULL */
    int64_t offset;
    int32_t partition;
    int32_t leader_epoch; /* -1: unknown */
} TopicPartitionObject;

int cfl_topic_partition_init_type(PyObject *module, cfl_state *st);

/* A list of TopicPartition from a C list (errors of each element included). */
PyObject *cfl_tp_list_from_c(cfl_state *st, const rd_kafka_topic_partition_list_t *c_parts);

/* A C list from a list/tuple of TopicPartition; TypeError names the offending element. */
rd_kafka_topic_partition_list_t *cfl_tp_list_to_c(cfl_state *st, PyObject *seq, const char *what);

#endif
