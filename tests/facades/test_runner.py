"""``python -m confluent_kafka.compat run``: unmodified kafka-python programs, import aliases for
one process only, argv and ``__main__`` intact."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

SRC = str(pathlib.Path(__file__).resolve().parents[2] / "src")


def _run(args, cwd, env_extra=None, timeout=60):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "confluent_kafka.compat", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_script_sees_facade_argv_and_main(tmp_path):
    (tmp_path / "helper_mod.py").write_text("VALUE = 'sibling module importable'\n")
    (tmp_path / "app.py").write_text(textwrap.dedent("""
        import sys
        import kafka
        import kafka.errors
        from kafka import KafkaConsumer, KafkaProducer
        from kafka.errors import KafkaTimeoutError
        from kafka.consumer.fetcher import ConsumerRecord
        from kafka.structs import TopicPartition
        import helper_mod
        print(kafka.__name__, kafka.KafkaConsumer.__module__)
        print(kafka.errors is sys.modules["kafka.errors"], kafka.errors.__name__)
        print(KafkaTimeoutError.__module__, ConsumerRecord._fields[0], TopicPartition("t", 1))
        print(__name__, sys.argv, helper_mod.VALUE)
        raise SystemExit(3)
    """))
    proc = _run(["run", "app.py", "--flag", "x y"], tmp_path)
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout.splitlines() == [
        "confluent_kafka.compat.kafka confluent_kafka.compat.kafka.consumer.group",
        "True confluent_kafka.compat.kafka.errors",
        "confluent_kafka.compat.kafka.errors topic TopicPartition(topic='t', partition=1)",
        "__main__ ['app.py', '--flag', 'x y'] sibling module importable",
    ]


def test_module_mode_and_missing_submodule(tmp_path):
    pkg = tmp_path / "mypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "worker.py").write_text(textwrap.dedent("""
        import sys
        from kafka import KafkaProducer
        print(__name__, sys.argv[1:], KafkaProducer.__module__)
        try:
            import kafka.no_such_module
        except ModuleNotFoundError as exc:
            print("missing:", exc.name)
    """))
    proc = _run(["run", "-m", "mypkg.worker", "a"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["__main__ ['a'] confluent_kafka.compat.kafka.producer.kafka",
                                        "missing: kafka.no_such_module"]


def test_usage_errors(tmp_path):
    assert _run([], tmp_path).returncode == 2
    assert "usage" in _run(["--help"], tmp_path).stdout
    assert _run(["frobnicate"], tmp_path).returncode == 2
    assert _run(["run", "-m"], tmp_path).returncode == 2


def test_alias_is_for_this_process_only(tmp_path):
    """The finder lives in sys.meta_path of the process that installed it: the same interpreter
    without the runner imports whatever 'kafka' is installed (here: nothing of ours)."""
    from confluent_kafka.compat.__main__ import AliasFinder, install

    finder = install({"kafkafacadetest": "confluent_kafka.compat.kafka"})
    try:
        import kafkafacadetest  # type: ignore[import-not-found]
        import kafkafacadetest.errors as errs  # type: ignore[import-not-found]
        from confluent_kafka.compat import kafka as facade
        assert kafkafacadetest is facade and errs is facade.errors
        assert AliasFinder().target("kafka.admin") == "confluent_kafka.compat.kafka.admin"
        assert AliasFinder().target("kafkaesque") is None
    finally:
        sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if n.split(".")[0] == "kafkafacadetest"]:
            del sys.modules[name]
    with pytest.raises(ModuleNotFoundError):
        import kafkafacadetest  # noqa: F401,F811


def test_unmodified_program_on_broker(kafka_bootstrap, facade_topic, tmp_path):
    """A kafka-python program, unchanged: produce with futures, consume with iteration, commit."""
    topic = facade_topic()
    (tmp_path / "prog.py").write_text(textwrap.dedent("""
        import sys
        from kafka import KafkaConsumer, KafkaProducer, TopicPartition
        from kafka.errors import KafkaError
        bootstrap, topic = sys.argv[1:]
        producer = KafkaProducer(bootstrap_servers=bootstrap, value_serializer=lambda v: v.encode())
        futures = [producer.send(topic, "msg-%d" % i) for i in range(5)]
        producer.flush()
        print([f.get(timeout=10).offset for f in futures])
        producer.close()
        consumer = KafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                                 consumer_timeout_ms=2000, value_deserializer=lambda b: b.decode())
        consumer.assign([TopicPartition(topic, 0)])
        print([m.value for m in consumer])
        consumer.close()
        KafkaProducer(bootstrap_servers=bootstrap, linger_ms=3000).send(topic, b"left for the exit hook")
    """))
    (tmp_path / "check.py").write_text(textwrap.dedent("""
        import sys
        from kafka import KafkaConsumer, TopicPartition
        consumer = KafkaConsumer(bootstrap_servers=sys.argv[1], auto_offset_reset="earliest", consumer_timeout_ms=2000)
        consumer.assign([TopicPartition(sys.argv[2], 0)])
        print([m.value for m in consumer][-1])
    """))
    proc = _run(["run", "prog.py", kafka_bootstrap, topic], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["[0, 1, 2, 3, 4]", str([f"msg-{i}" for i in range(5)])]
    check = _run(["run", "check.py", kafka_bootstrap, topic], tmp_path)    # the unclosed producer's
    assert check.stdout.strip() == "b'left for the exit hook'", check.stderr   # record was delivered at exit


def test_installed_versions_are_the_facades(tmp_path):
    """Programs and frameworks ask importlib.metadata which kafka-python or aiokafka is installed
    (FastStream does, at import): under the runner the answer is the version whose API the
    facade provides, whatever is installed; without the runner it is what is installed."""
    (tmp_path / "app.py").write_text(textwrap.dedent("""
        import importlib.metadata as md
        names = [d.metadata["Name"] for d in md.distributions()]
        print(md.version("aiokafka"), md.version("kafka-python"), md.version("Kafka_Python"))
        print(names.count("aiokafka"), names.count("kafka-python"))
        print(md.distribution("aiokafka").read_text("RECORD"), md.metadata("aiokafka")["Summary"])
        try:
            md.version("kafka")  # the import name is not a distribution name
        except md.PackageNotFoundError:
            print("no kafka distribution")
    """))
    proc = _run(["run", "app.py"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    from confluent_kafka.compat import aiokafka, kafka
    assert proc.stdout.splitlines() == [
        f"{aiokafka.__version__} {kafka.__version__} {kafka.__version__}",
        "1 1",
        "None aiokafka API over confluent_kafka (confluent_kafka.compat.aiokafka)",
        "no kafka distribution",
    ]
