/* list_topics(): librdkafka metadata as confluent_kafka.admin ClusterMetadata objects. */
#ifndef CFL_METADATA_H
#define CFL_METADATA_H
#include "handle.h"

PyObject *cfl_list_topics(Handle *h, PyObject *args, PyObject *kwargs);

#endif
