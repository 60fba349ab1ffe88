/* MockCluster: librdkafka's in-process mock Kafka cluster, with fault injection. */
#ifndef CFL_MOCK_H
#define CFL_MOCK_H
#include "module.h"

int cfl_mock_init_type(PyObject *module, cfl_state *st);

#endif
