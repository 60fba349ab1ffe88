/* Admin result events as plain Python values; confluent_kafka/admin/_client.py turns them into
 * the typed result classes. Errors are KafkaError objects (None for success).
 *
 *   CreateTopics, DeleteTopics, CreatePartitions  [(topic, err)]
 *   DescribeConfigs, AlterConfigs,
 *   IncrementalAlterConfigs                       [(restype, name, err, [entry])]
 *       entry = (name, value, source, is_read_only, is_default, is_sensitive, is_synonym, [entry])
 *   CreateAcls                                    [err]            (in request order)
 *   DescribeAcls                                  [acl]
 *       acl = (restype, name, pattern_type, principal, host, operation, permission_type)
 *   DeleteAcls                                    [(err, [acl])]   (in request order)
 *   ListConsumerGroups                            ([(group_id, is_simple, state, type)], [err])
 *   DescribeConsumerGroups                        [(group_id, err, is_simple, assignor, state, type,
 *                                                   coordinator, [member], authorized_ops)]
 *       member = (member_id, client_id, host, group_instance_id, [TopicPartition],
 *                 [TopicPartition] or None)
 *   DeleteGroups                                  [(group_id, err)]
 *   List/Alter/DeleteConsumerGroupOffsets         [(group_id, err, [TopicPartition])]
 *   DescribeTopics                                [(topic, topic_id, is_internal, err, [partition],
 *                                                   authorized_ops)]
 *       topic_id = (most_significant_bits, least_significant_bits, base64) or None
 *       partition = (id, leader, [replica], [isr])
 *   DescribeCluster                               (cluster_id, controller, [node], authorized_ops)
 *   ListOffsets                                   [(topic, partition, err, offset, timestamp, leader_epoch)]
 *   DeleteRecords                                 [TopicPartition] (offset: the new low watermark)
 *   ElectLeaders                                  [(topic, partition, err)]
 *   DescribeUserScramCredentials                  [(user, err, [(mechanism, iterations)])]
 *   AlterUserScramCredentials                     [(user, err)]
 *
 * A node is (id, host, port, rack) or None; authorized_ops is a list of AclOperation ints, or None
 * when they were not requested. */
#include "admin.h"

#include "error.h"
#include "topic_partition.h"

/* Py_BuildValue with "N" releases the N arguments it was given when one of them is NULL, so
 * every builder below can pass freshly made objects straight through. */

static PyObject *err_of(cfl_state *st, const rd_kafka_error_t *error) {
    if (error == NULL || rd_kafka_error_code(error) == RD_KAFKA_RESP_ERR_NO_ERROR)
        Py_RETURN_NONE;
    return cfl_error_from_rd(st, error);
}

static PyObject *str_or_none(const char *s) {
    if (s == NULL)
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

static PyObject *node_of(const rd_kafka_Node_t *n) {
    if (n == NULL)
        Py_RETURN_NONE;
    return Py_BuildValue("(iNiN)", rd_kafka_Node_id(n), str_or_none(rd_kafka_Node_host(n)),
                         (int)rd_kafka_Node_port(n), str_or_none(rd_kafka_Node_rack(n)));
}

static PyObject *node_list(const rd_kafka_Node_t **nodes, size_t cnt) {
    PyObject *list = PyList_New((Py_ssize_t)cnt);
    for (size_t i = 0; list != NULL && i < cnt; i++) {
        PyObject *n = node_of(nodes[i]);
        if (n == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, n);
    }
    return list;
}

static PyObject *ops_list(const rd_kafka_AclOperation_t *ops, size_t cnt) {
    if (ops == NULL)
        Py_RETURN_NONE;
    PyObject *list = PyList_New((Py_ssize_t)cnt);
    for (size_t i = 0; list != NULL && i < cnt; i++) {
        PyObject *v = PyLong_FromLong((long)ops[i]);
        if (v == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
    }
    return list;
}

/* A list of `cnt` items made by `fn(st, items[i])`. */
typedef PyObject *(*item_fn)(cfl_state *st, const void *item);

static PyObject *list_of(cfl_state *st, const void *const *items, size_t cnt, item_fn fn) {
    PyObject *list = PyList_New((Py_ssize_t)cnt);
    for (size_t i = 0; list != NULL && i < cnt; i++) {
        PyObject *v = fn(st, items[i]);
        if (v == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
    }
    return list;
}

#define LIST_OF(st, items, cnt, fn) list_of((st), (const void *const *)(items), (cnt), (item_fn)(fn))

/* ---- topics ---------------------------------------------------------------------------- */

static PyObject *topic_result_of(cfl_state *st, const rd_kafka_topic_result_t *r) {
    rd_kafka_resp_err_t err = rd_kafka_topic_result_error(r);
    return Py_BuildValue("(NN)", str_or_none(rd_kafka_topic_result_name(r)),
                         cfl_error_or_none(st, err, err ? rd_kafka_topic_result_error_string(r) : NULL));
}

/* ---- configs --------------------------------------------------------------------------- */

static PyObject *config_entry_of(cfl_state *st, const rd_kafka_ConfigEntry_t *e) {
    size_t n = 0;
    const rd_kafka_ConfigEntry_t **syn = rd_kafka_ConfigEntry_synonyms(e, &n);
    return Py_BuildValue("(NNiNNNNN)", str_or_none(rd_kafka_ConfigEntry_name(e)),
                         str_or_none(rd_kafka_ConfigEntry_value(e)), (int)rd_kafka_ConfigEntry_source(e),
                         PyBool_FromLong(rd_kafka_ConfigEntry_is_read_only(e)),
                         PyBool_FromLong(rd_kafka_ConfigEntry_is_default(e)),
                         PyBool_FromLong(rd_kafka_ConfigEntry_is_sensitive(e)),
                         PyBool_FromLong(rd_kafka_ConfigEntry_is_synonym(e)),
                         LIST_OF(st, syn, syn ? n : 0, config_entry_of));
}

static PyObject *config_resource_of(cfl_state *st, const rd_kafka_ConfigResource_t *r) {
    size_t n = 0;
    const rd_kafka_ConfigEntry_t **entries = rd_kafka_ConfigResource_configs(r, &n);
    rd_kafka_resp_err_t err = rd_kafka_ConfigResource_error(r);
    return Py_BuildValue("(iNNN)", (int)rd_kafka_ConfigResource_type(r),
                         str_or_none(rd_kafka_ConfigResource_name(r)),
                         cfl_error_or_none(st, err, err ? rd_kafka_ConfigResource_error_string(r) : NULL),
                         LIST_OF(st, entries, entries ? n : 0, config_entry_of));
}

/* ---- ACLs ------------------------------------------------------------------------------ */

static PyObject *acl_of(cfl_state *st, const rd_kafka_AclBinding_t *a) {
    return Py_BuildValue("(iNiNNii)", (int)rd_kafka_AclBinding_restype(a), str_or_none(rd_kafka_AclBinding_name(a)),
                         (int)rd_kafka_AclBinding_resource_pattern_type(a),
                         str_or_none(rd_kafka_AclBinding_principal(a)), str_or_none(rd_kafka_AclBinding_host(a)),
                         (int)rd_kafka_AclBinding_operation(a), (int)rd_kafka_AclBinding_permission_type(a));
}

static PyObject *acl_result_of(cfl_state *st, const rd_kafka_acl_result_t *r) {
    return err_of(st, rd_kafka_acl_result_error(r));
}

static PyObject *delete_acls_response_of(cfl_state *st, const rd_kafka_DeleteAcls_result_response_t *r) {
    size_t n = 0;
    const rd_kafka_AclBinding_t **acls = rd_kafka_DeleteAcls_result_response_matching_acls(r, &n);
    return Py_BuildValue("(NN)", err_of(st, rd_kafka_DeleteAcls_result_response_error(r)),
                         LIST_OF(st, acls, acls ? n : 0, acl_of));
}

/* ---- groups ---------------------------------------------------------------------------- */

static PyObject *group_listing_of(cfl_state *st, const rd_kafka_ConsumerGroupListing_t *g) {
    int type = 0;
#if RD_KAFKA_VERSION >= 0x020600ff
    type = (int)rd_kafka_ConsumerGroupListing_type(g);
#endif
    return Py_BuildValue("(NNii)", str_or_none(rd_kafka_ConsumerGroupListing_group_id(g)),
                         PyBool_FromLong(rd_kafka_ConsumerGroupListing_is_simple_consumer_group(g)),
                         (int)rd_kafka_ConsumerGroupListing_state(g), type);
}

static PyObject *error_item_of(cfl_state *st, const rd_kafka_error_t *e) { return cfl_error_from_rd(st, e); }

static PyObject *assignment_of(cfl_state *st, const rd_kafka_MemberAssignment_t *a) {
    if (a == NULL)
        Py_RETURN_NONE;
    return cfl_tp_list_from_c(st, rd_kafka_MemberAssignment_partitions(a));
}

static PyObject *member_of(cfl_state *st, const rd_kafka_MemberDescription_t *m) {
    PyObject *target = NULL;
#if RD_KAFKA_VERSION >= 0x020a00ff
    target = assignment_of(st, rd_kafka_MemberDescription_target_assignment(m));
#else
    target = Py_NewRef(Py_None);
#endif
    PyObject *assigned = assignment_of(st, rd_kafka_MemberDescription_assignment(m));
    if (assigned == Py_None) {
        Py_DECREF(assigned);
        assigned = PyList_New(0);
    }
    return Py_BuildValue("(NNNNNN)", str_or_none(rd_kafka_MemberDescription_consumer_id(m)),
                         str_or_none(rd_kafka_MemberDescription_client_id(m)),
                         str_or_none(rd_kafka_MemberDescription_host(m)),
                         str_or_none(rd_kafka_MemberDescription_group_instance_id(m)), assigned, target);
}

static PyObject *group_description_of(cfl_state *st, const rd_kafka_ConsumerGroupDescription_t *g) {
    size_t n = rd_kafka_ConsumerGroupDescription_member_count(g);
    PyObject *members = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; members != NULL && i < n; i++) {
        PyObject *m = member_of(st, rd_kafka_ConsumerGroupDescription_member(g, i));
        if (m == NULL)
            Py_CLEAR(members);
        else
            PyList_SET_ITEM(members, (Py_ssize_t)i, m);
    }
    size_t nops = 0;
    const rd_kafka_AclOperation_t *ops = rd_kafka_ConsumerGroupDescription_authorized_operations(g, &nops);
    int type = 0;
#if RD_KAFKA_VERSION >= 0x020a00ff
    type = (int)rd_kafka_ConsumerGroupDescription_type(g);
#endif
    return Py_BuildValue("(NNNNiiNNN)", str_or_none(rd_kafka_ConsumerGroupDescription_group_id(g)),
                         err_of(st, rd_kafka_ConsumerGroupDescription_error(g)),
                         PyBool_FromLong(rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(g)),
                         str_or_none(rd_kafka_ConsumerGroupDescription_partition_assignor(g)),
                         (int)rd_kafka_ConsumerGroupDescription_state(g), type,
                         node_of(rd_kafka_ConsumerGroupDescription_coordinator(g)), members, ops_list(ops, nops));
}

static PyObject *group_result_of(cfl_state *st, const rd_kafka_group_result_t *r) {
    const rd_kafka_topic_partition_list_t *parts = rd_kafka_group_result_partitions(r);
    return Py_BuildValue("(NNN)", str_or_none(rd_kafka_group_result_name(r)),
                         err_of(st, rd_kafka_group_result_error(r)),
                         parts ? cfl_tp_list_from_c(st, parts) : PyList_New(0));
}

static PyObject *group_deleted_of(cfl_state *st, const rd_kafka_group_result_t *r) {
    return Py_BuildValue("(NN)", str_or_none(rd_kafka_group_result_name(r)),
                         err_of(st, rd_kafka_group_result_error(r)));
}

/* ---- topics and cluster ---------------------------------------------------------------- */

static PyObject *partition_info_of(cfl_state *st, const rd_kafka_TopicPartitionInfo_t *p) {
    size_t nr = 0, ni = 0;
    const rd_kafka_Node_t **replicas = rd_kafka_TopicPartitionInfo_replicas(p, &nr);
    const rd_kafka_Node_t **isr = rd_kafka_TopicPartitionInfo_isr(p, &ni);
    return Py_BuildValue("(iNNN)", (int)rd_kafka_TopicPartitionInfo_partition(p),
                         node_of(rd_kafka_TopicPartitionInfo_leader(p)), node_list(replicas, replicas ? nr : 0),
                         node_list(isr, isr ? ni : 0));
}

static PyObject *topic_id_of(const rd_kafka_Uuid_t *id) {
    if (id == NULL)
        Py_RETURN_NONE;
    const char *b64 = rd_kafka_Uuid_base64str(id);
    return Py_BuildValue("(LLN)", (long long)rd_kafka_Uuid_most_significant_bits(id),
                         (long long)rd_kafka_Uuid_least_significant_bits(id), str_or_none(b64));
}

static PyObject *topic_description_of(cfl_state *st, const rd_kafka_TopicDescription_t *t) {
    size_t np = 0, nops = 0;
    const rd_kafka_TopicPartitionInfo_t **parts = rd_kafka_TopicDescription_partitions(t, &np);
    const rd_kafka_AclOperation_t *ops = rd_kafka_TopicDescription_authorized_operations(t, &nops);
    return Py_BuildValue("(NNNNNN)", str_or_none(rd_kafka_TopicDescription_name(t)),
                         topic_id_of(rd_kafka_TopicDescription_topic_id(t)),
                         PyBool_FromLong(rd_kafka_TopicDescription_is_internal(t)),
                         err_of(st, rd_kafka_TopicDescription_error(t)),
                         LIST_OF(st, parts, parts ? np : 0, partition_info_of), ops_list(ops, nops));
}

static PyObject *cluster_of(cfl_state *st, const rd_kafka_DescribeCluster_result_t *r) {
    size_t nn = 0, nops = 0;
    const rd_kafka_Node_t **nodes = rd_kafka_DescribeCluster_result_nodes(r, &nn);
    const rd_kafka_AclOperation_t *ops = rd_kafka_DescribeCluster_result_authorized_operations(r, &nops);
    return Py_BuildValue("(NNNN)", str_or_none(rd_kafka_DescribeCluster_result_cluster_id(r)),
                         node_of(rd_kafka_DescribeCluster_result_controller(r)), node_list(nodes, nodes ? nn : 0),
                         ops_list(ops, nops));
}

/* ---- offsets, records, leaders --------------------------------------------------------- */

static PyObject *list_offsets_info_of(cfl_state *st, const rd_kafka_ListOffsetsResultInfo_t *info) {
    const rd_kafka_topic_partition_t *p = rd_kafka_ListOffsetsResultInfo_topic_partition(info);
    int32_t epoch = rd_kafka_topic_partition_get_leader_epoch(p);
    return Py_BuildValue("(NiNLLN)", str_or_none(p->topic), (int)p->partition, cfl_error_or_none(st, p->err, NULL),
                         (long long)p->offset, (long long)rd_kafka_ListOffsetsResultInfo_timestamp(info),
                         epoch < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(epoch));
}

static PyObject *partition_result_of(cfl_state *st, const rd_kafka_topic_partition_result_t *r) {
    const rd_kafka_topic_partition_t *p = rd_kafka_topic_partition_result_partition(r);
    return Py_BuildValue("(NiN)", str_or_none(p->topic), (int)p->partition,
                         err_of(st, rd_kafka_topic_partition_result_error(r)));
}

/* ---- SCRAM ----------------------------------------------------------------------------- */

static PyObject *scram_description_of(cfl_state *st, const rd_kafka_UserScramCredentialsDescription_t *d) {
    size_t n = rd_kafka_UserScramCredentialsDescription_scramcredentialinfo_count(d);
    PyObject *infos = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; infos != NULL && i < n; i++) {
        const rd_kafka_ScramCredentialInfo_t *ci = rd_kafka_UserScramCredentialsDescription_scramcredentialinfo(d, i);
        PyObject *v = Py_BuildValue("(ii)", (int)rd_kafka_ScramCredentialInfo_mechanism(ci),
                                    (int)rd_kafka_ScramCredentialInfo_iterations(ci));
        if (v == NULL)
            Py_CLEAR(infos);
        else
            PyList_SET_ITEM(infos, (Py_ssize_t)i, v);
    }
    return Py_BuildValue("(NNN)", str_or_none(rd_kafka_UserScramCredentialsDescription_user(d)),
                         err_of(st, rd_kafka_UserScramCredentialsDescription_error(d)), infos);
}

static PyObject *scram_alter_of(cfl_state *st, const rd_kafka_AlterUserScramCredentials_result_response_t *r) {
    return Py_BuildValue("(NN)", str_or_none(rd_kafka_AlterUserScramCredentials_result_response_user(r)),
                         err_of(st, rd_kafka_AlterUserScramCredentials_result_response_error(r)));
}

/* ---- dispatch -------------------------------------------------------------------------- */

PyObject *cfl_admin_result(cfl_state *st, rd_kafka_event_t *rkev) {
    size_t n = 0;
    switch (rd_kafka_event_type(rkev)) {
    case RD_KAFKA_EVENT_CREATETOPICS_RESULT: {
        const rd_kafka_topic_result_t **r =
            rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(rkev), &n);
        return LIST_OF(st, r, n, topic_result_of);
    }
    case RD_KAFKA_EVENT_DELETETOPICS_RESULT: {
        const rd_kafka_topic_result_t **r =
            rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(rkev), &n);
        return LIST_OF(st, r, n, topic_result_of);
    }
    case RD_KAFKA_EVENT_CREATEPARTITIONS_RESULT: {
        const rd_kafka_topic_result_t **r =
            rd_kafka_CreatePartitions_result_topics(rd_kafka_event_CreatePartitions_result(rkev), &n);
        return LIST_OF(st, r, n, topic_result_of);
    }
    case RD_KAFKA_EVENT_DESCRIBECONFIGS_RESULT: {
        const rd_kafka_ConfigResource_t **r =
            rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(rkev), &n);
        return LIST_OF(st, r, n, config_resource_of);
    }
    case RD_KAFKA_EVENT_ALTERCONFIGS_RESULT: {
        const rd_kafka_ConfigResource_t **r =
            rd_kafka_AlterConfigs_result_resources(rd_kafka_event_AlterConfigs_result(rkev), &n);
        return LIST_OF(st, r, n, config_resource_of);
    }
    case RD_KAFKA_EVENT_INCREMENTALALTERCONFIGS_RESULT: {
        const rd_kafka_ConfigResource_t **r = rd_kafka_IncrementalAlterConfigs_result_resources(
            rd_kafka_event_IncrementalAlterConfigs_result(rkev), &n);
        return LIST_OF(st, r, n, config_resource_of);
    }
    case RD_KAFKA_EVENT_CREATEACLS_RESULT: {
        const rd_kafka_acl_result_t **r = rd_kafka_CreateAcls_result_acls(rd_kafka_event_CreateAcls_result(rkev), &n);
        return LIST_OF(st, r, n, acl_result_of);
    }
    case RD_KAFKA_EVENT_DESCRIBEACLS_RESULT: {
        const rd_kafka_AclBinding_t **r =
            rd_kafka_DescribeAcls_result_acls(rd_kafka_event_DescribeAcls_result(rkev), &n);
        return LIST_OF(st, r, n, acl_of);
    }
    case RD_KAFKA_EVENT_DELETEACLS_RESULT: {
        const rd_kafka_DeleteAcls_result_response_t **r =
            rd_kafka_DeleteAcls_result_responses(rd_kafka_event_DeleteAcls_result(rkev), &n);
        return LIST_OF(st, r, n, delete_acls_response_of);
    }
    case RD_KAFKA_EVENT_LISTCONSUMERGROUPS_RESULT: {
        const rd_kafka_ListConsumerGroups_result_t *res = rd_kafka_event_ListConsumerGroups_result(rkev);
        size_t ne = 0;
        const rd_kafka_ConsumerGroupListing_t **valid = rd_kafka_ListConsumerGroups_result_valid(res, &n);
        const rd_kafka_error_t **errors = rd_kafka_ListConsumerGroups_result_errors(res, &ne);
        return Py_BuildValue("(NN)", LIST_OF(st, valid, n, group_listing_of), LIST_OF(st, errors, ne, error_item_of));
    }
    case RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT: {
        const rd_kafka_ConsumerGroupDescription_t **r = rd_kafka_DescribeConsumerGroups_result_groups(
            rd_kafka_event_DescribeConsumerGroups_result(rkev), &n);
        return LIST_OF(st, r, n, group_description_of);
    }
    case RD_KAFKA_EVENT_DELETEGROUPS_RESULT: {
        const rd_kafka_group_result_t **r =
            rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(rkev), &n);
        return LIST_OF(st, r, n, group_deleted_of);
    }
    case RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT: {
        const rd_kafka_group_result_t **r = rd_kafka_ListConsumerGroupOffsets_result_groups(
            rd_kafka_event_ListConsumerGroupOffsets_result(rkev), &n);
        return LIST_OF(st, r, n, group_result_of);
    }
    case RD_KAFKA_EVENT_ALTERCONSUMERGROUPOFFSETS_RESULT: {
        const rd_kafka_group_result_t **r = rd_kafka_AlterConsumerGroupOffsets_result_groups(
            rd_kafka_event_AlterConsumerGroupOffsets_result(rkev), &n);
        return LIST_OF(st, r, n, group_result_of);
    }
    case RD_KAFKA_EVENT_DELETECONSUMERGROUPOFFSETS_RESULT: {
        const rd_kafka_group_result_t **r = rd_kafka_DeleteConsumerGroupOffsets_result_groups(
            rd_kafka_event_DeleteConsumerGroupOffsets_result(rkev), &n);
        return LIST_OF(st, r, n, group_result_of);
    }
    case RD_KAFKA_EVENT_DESCRIBETOPICS_RESULT: {
        const rd_kafka_TopicDescription_t **r =
            rd_kafka_DescribeTopics_result_topics(rd_kafka_event_DescribeTopics_result(rkev), &n);
        return LIST_OF(st, r, n, topic_description_of);
    }
    case RD_KAFKA_EVENT_DESCRIBECLUSTER_RESULT:
        return cluster_of(st, rd_kafka_event_DescribeCluster_result(rkev));
    case RD_KAFKA_EVENT_LISTOFFSETS_RESULT: {
        const rd_kafka_ListOffsetsResultInfo_t **r =
            rd_kafka_ListOffsets_result_infos(rd_kafka_event_ListOffsets_result(rkev), &n);
        return LIST_OF(st, r, n, list_offsets_info_of);
    }
    case RD_KAFKA_EVENT_DELETERECORDS_RESULT:
        return cfl_tp_list_from_c(st, rd_kafka_DeleteRecords_result_offsets(rd_kafka_event_DeleteRecords_result(rkev)));
    case RD_KAFKA_EVENT_ELECTLEADERS_RESULT: {
        const rd_kafka_topic_partition_result_t **r =
            rd_kafka_ElectLeaders_result_partitions(rd_kafka_event_ElectLeaders_result(rkev), &n);
        return LIST_OF(st, r, n, partition_result_of);
    }
    case RD_KAFKA_EVENT_DESCRIBEUSERSCRAMCREDENTIALS_RESULT: {
        const rd_kafka_UserScramCredentialsDescription_t **r = rd_kafka_DescribeUserScramCredentials_result_descriptions(
            rd_kafka_event_DescribeUserScramCredentials_result(rkev), &n);
        return LIST_OF(st, r, n, scram_description_of);
    }
    case RD_KAFKA_EVENT_ALTERUSERSCRAMCREDENTIALS_RESULT: {
        const rd_kafka_AlterUserScramCredentials_result_response_t **r =
            rd_kafka_AlterUserScramCredentials_result_responses(rd_kafka_event_AlterUserScramCredentials_result(rkev),
                                                                &n);
        return LIST_OF(st, r, n, scram_alter_of);
    }
    default:
        PyErr_Format(PyExc_RuntimeError, "unexpected librdkafka event %s on the admin queue",
                     rd_kafka_event_name(rkev));
        return NULL;
    }
}
