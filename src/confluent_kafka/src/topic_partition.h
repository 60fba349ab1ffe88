/* TopicPartition and conversions to and from rd_kafka_topic_partition_list_t. */
#ifndef CFL_TOPIC_PARTITION_H
#define CFL_TOPIC_PARTITION_H
#include "module.h"

typedef struct {
    PyObject_HEAD
    PyObject *topic;    /* str; NULL only before __init__ ran */
    PyObject *metadata; /* str or NULL */
    PyObject *error;    /* KafkaError or NULL */
    long long offset;   /* the C types of the T_INT/T_LONGLONG members */
    int partition;
    int leader_epoch; /* < 0: unknown */
} TopicPartitionObject;

int cfl_topic_partition_init_type(PyObject *module, cfl_state *st);

/* A list of TopicPartition from a C list (errors of each element included). */
PyObject *cfl_tp_list_from_c(cfl_state *st, const rd_kafka_topic_partition_list_t *c_parts);

/* A C list from a list (or tuple) of TopicPartition; TypeError for anything else. `what` names
 * the argument (unused: the texts are upstream's). */
rd_kafka_topic_partition_list_t *cfl_tp_list_to_c(cfl_state *st, PyObject *seq, const char *what);

#endif
