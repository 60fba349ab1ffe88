"""Data-contract rule executors and actions: CEL (:mod:`.cel`), JSONata (:mod:`.jsonata`), the
dead-letter-queue action (:mod:`.dlq`) and field encryption (:mod:`.encryption`). Each needs
the ``rules`` extra (``pip install 'confluent-kafka[rules]'``) and is registered with its
``register()`` class method."""
