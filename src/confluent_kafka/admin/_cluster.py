"""The result of :meth:`AdminClient.describe_cluster`."""

from __future__ import annotations

from typing import List, Optional, Union

from ._acl import AclOperation
from ._group import _operations
from ._model_types import Node

__all__ = ["DescribeClusterResult"]


class DescribeClusterResult:
    """The cluster as :meth:`AdminClient.describe_cluster` describes it.
    ``authorized_operations`` is None unless requested.

    :param controller: The controller broker.
    :param nodes: Every broker.
    :param cluster_id: The cluster id.
    :param authorized_operations: The operations allowed on the cluster.
    """

    def __init__(
        self,
        controller: Optional[Node],
        nodes: List[Node],
        cluster_id: Optional[str] = None,
        authorized_operations: Optional[List[Union[str, int, AclOperation]]] = None,
    ) -> None:
        self.cluster_id = cluster_id
        self.controller = controller
        self.nodes = nodes
        self.authorized_operations = _operations(authorized_operations)
