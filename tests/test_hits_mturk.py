"""The MTurk backend against botocore's Stubber on a real MTurk client (the real service model
validates every request), including throttling, service errors, pagination and crashes."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.config import Config as BotoConfig
from botocore.exceptions import (
    ClientError,
    ConnectionClosedError,
    ConnectTimeoutError,
    EndpointConnectionError,
    ReadTimeoutError,
)
from botocore.stub import ANY, Stubber

from hits.backends.mturk import (
    ENDPOINTS,
    SUBMIT_URLS,
    MturkBackend,
    mturk_backend,
    parse_answer,
    qualifications,
)
from hits.make import make_el_batch
from hits.store import batch
from hits.workflow import (
    collect_batch,
    expire_batch,
    publish_batch,
    review_batch,
    send_batch,
)
from xel.config import Config
from xel.errors import XelError
from xel.store import Store


@pytest.fixture
def client() -> Any:
    return boto3.client(
        "mturk", region_name="us-east-1", endpoint_url=ENDPOINTS["sandbox"],
        aws_access_key_id="AKIAFAKE", aws_secret_access_key="fake",
    )


Setup = Callable[..., tuple[Store, Config, str, MturkBackend, list[float]]]


@pytest.fixture
def mturk_setup(tmp_path: Path, client: Any, crowd_store: Any, sim_config: Any) -> Setup:
    """`mturk_setup(n_queries=12)`: a crowd collection with an EL batch made, and an MTurk backend
    on the stubbed client (its sleeps recorded)."""

    def make(n_queries: int = 12) -> tuple[Store, Config, str, MturkBackend, list[float]]:
        store, _, _ = crowd_store(tmp_path, n_queries=n_queries, n_gold=4)
        cfg = sim_config(tmp_path, mturk={"locales": ["US", "GB"],
                                          "failed_gold_qualification": "3FAILEDGOLDQUAL"})
        batch_id = make_el_batch(store, cfg)
        assert batch_id
        sleeps: list[float] = []
        backend = mturk_backend(store, cfg, client=client, sleep=sleeps.append)
        return store, cfg, batch_id, backend, sleeps

    return make


def create_params(token: str) -> dict[str, Any]:
    return {
        "MaxAssignments": 3, "AutoApprovalDelayInSeconds": ANY, "LifetimeInSeconds": ANY,
        "AssignmentDurationInSeconds": ANY, "Reward": "0.20", "Title": ANY, "Keywords": ANY,
        "Description": ANY, "Question": ANY, "RequesterAnnotation": token,
        "QualificationRequirements": ANY, "UniqueRequestToken": token,
    }


def tokens(store: Store) -> list[tuple[str, str]]:
    return [(r[0], r[1]) for r in store.query("SELECT hit_id, token FROM hit_hits ORDER BY 1")]


def fail_first(client: Any, operation: str, errors: list[Exception]) -> None:
    """Make the next calls of an operation raise botocore's network errors, as the HTTP layer
    does (before the Stubber's response is taken, so it is still there for the retry)."""
    pending = list(errors)

    def raise_next(**_: Any) -> None:
        if pending:
            raise pending.pop(0)

    client.meta.events.register(f"provide-client-params.mturk.{operation}", raise_next)


def test_publish_retries_throttling_service_and_network_errors(
        tmp_path: Path, client: Any, mturk_setup: Setup) -> None:
    store, cfg, batch_id, backend, sleeps = mturk_setup(n_queries=12)
    hits = tokens(store)
    assert len(hits) == 2
    url = ENDPOINTS["sandbox"]
    with Stubber(client) as stub:
        stub.add_client_error("create_hit", "ThrottlingException", "Rate exceeded", 400)
        stub.add_response("create_hit", {"HIT": {"HITId": "EXT1"}}, create_params(hits[0][1]))
        # What botocore makes of a load balancer's HTML 503 and of a bare 500: no AWS code.
        stub.add_client_error("create_hit", "503", "<html>Service Unavailable</html>", 503)
        stub.add_client_error("create_hit", "", "", 500)
        stub.add_client_error("create_hit", "ServiceFault", "internal", 500,
                              modeled_fields={"TurkErrorCode": "AWS.ServiceFault"})
        stub.add_response("create_hit", {"HIT": {"HITId": "EXT2"}}, create_params(hits[1][1]))
        fail_first(client, "CreateHIT", [
            EndpointConnectionError(endpoint_url=url), ConnectTimeoutError(endpoint_url=url),
            ReadTimeoutError(endpoint_url=url), ConnectionClosedError(endpoint_url=url)])
        assert publish_batch(store, cfg, batch_id, backend) == 2
        stub.assert_no_pending_responses()
    # HIT 1: four network errors and a throttle; HIT 2: 503, 500, ServiceFault.
    assert len(sleeps) == 8
    first, second = sleeps[:5], sleeps[5:]
    for waits in (first, second):  # exponential, jittered into [0.5, 1) of 1, 2, 4, ...
        for attempt, wait in enumerate(waits):
            assert 2 ** attempt / 2 <= wait < 2 ** attempt
    stored = [r[0] for r in store.query("SELECT external_id FROM hit_hits ORDER BY hit_id")]
    assert stored == ["EXT1", "EXT2"]
    assert batch(store, batch_id).state == "published"
    assert batch(store, batch_id).environment == "sandbox"


def test_backoff_is_capped_and_giving_up_says_what_to_rerun(
        tmp_path: Path, client: Any, mturk_setup: Setup) -> None:
    store, cfg, batch_id, _, _ = mturk_setup(n_queries=8)
    sleeps: list[float] = []
    backend = MturkBackend(store, cfg, client, sleep=sleeps.append, attempts=9)
    with Stubber(client) as stub:
        for _ in range(9):
            stub.add_client_error("create_hit", "ThrottlingException", "Rate exceeded", 400)
        with pytest.raises(XelError) as error:
            publish_batch(store, cfg, batch_id, backend)
        stub.assert_no_pending_responses()
    assert len(sleeps) == 8 and max(sleeps) < 30 and sleeps[-1] >= 15  # capped at 30 s
    message = str(error.value)
    assert "after 9 tries of CreateHIT" in message and "Rate exceeded" in message
    assert "hits publish BATCH --backend mturk" in message and "xel build" in message
    assert store.scalar("SELECT COUNT(*) FROM hit_hits WHERE external_id IS NOT NULL") == 0


def test_a_refused_connection_is_retried_then_reported(tmp_path: Path, client: Any,
        mturk_setup: Setup) -> None:
    store, cfg, batch_id, backend, sleeps = mturk_setup(n_queries=8)
    published(store, cfg, batch_id, backend, client)
    fail_first(client, "ListAssignmentsForHIT",
               [EndpointConnectionError(endpoint_url=ENDPOINTS["sandbox"])] * 6)
    with Stubber(client), pytest.raises(XelError, match="Rerun `hits collect`") as error:
        collect_batch(store, batch_id, backend)
    assert "Could not connect to the endpoint URL" in str(error.value)
    assert len(sleeps) == 5


def test_client_errors_are_not_retried(tmp_path: Path, client: Any, mturk_setup: Setup) -> None:
    store, cfg, batch_id, backend, sleeps = mturk_setup()
    with Stubber(client) as stub:
        stub.add_client_error("create_hit", "RequestError", "Reward too low", 400)
        with pytest.raises(Exception, match="Reward too low"):
            publish_batch(store, cfg, batch_id, backend)
    assert sleeps == []
    assert store.scalar("SELECT COUNT(*) FROM hit_hits WHERE external_id IS NOT NULL") == 0


class Killed(Exception):
    pass


def test_crash_between_create_hit_calls_creates_no_duplicate(
        tmp_path: Path, client: Any, mturk_setup: Setup) -> None:
    store, cfg, batch_id, backend, _ = mturk_setup(n_queries=12)
    (hit1, token1), (hit2, token2) = tokens(store)
    real_publish = backend.publish
    calls = []

    def dies_after_second_create(hit: Any) -> str:
        external = real_publish(hit)
        calls.append(external)
        if len(calls) == 2:
            raise Killed  # MTurk created the HIT, the process died before recording it
        return external

    with Stubber(client) as stub:
        stub.add_response("create_hit", {"HIT": {"HITId": "EXT1"}}, create_params(token1))
        stub.add_response("create_hit", {"HIT": {"HITId": EXT2}}, create_params(token2))
        backend.publish = dies_after_second_create  # type: ignore[method-assign]
        with pytest.raises(Killed):
            publish_batch(store, cfg, batch_id, backend)
        stub.assert_no_pending_responses()
    assert store.scalar("SELECT external_id FROM hit_hits WHERE hit_id = ?", (hit1,)) == "EXT1"
    assert store.scalar("SELECT external_id FROM hit_hits WHERE hit_id = ?", (hit2,)) is None

    backend.publish = real_publish  # type: ignore[method-assign]
    with Stubber(client) as stub:
        hit_exists(stub, token2, f"The HIT with ID {EXT2} already exists. (1624047673908)")
        assert publish_batch(store, cfg, batch_id, backend) == 1  # only the unrecorded one
        stub.assert_no_pending_responses()
    assert store.scalar("SELECT external_id FROM hit_hits WHERE hit_id = ?", (hit2,)) == EXT2
    assert store.scalar("SELECT COUNT(DISTINCT external_id) FROM hit_hits") == 2


EXT2 = "3AQN9REUTFGXCRWFJFBFXS7PMWY9HZ"  # the shape of a HIT id: 30 capitals and digits


def hit_exists(stub: Stubber, token: str, message: str) -> None:
    """MTurk's answer to a CreateHIT whose token it has seen (documented for CreateHIT's
    UniqueRequestToken): a RequestError with TurkErrorCode AWS.MechanicalTurk.HitAlreadyExists
    and the HIT id in the message. The real service model checks the error's fields."""
    stub.add_client_error("create_hit", "RequestError", message, 400,
                          modeled_fields={"TurkErrorCode": "AWS.MechanicalTurk.HitAlreadyExists"},
                          expected_params=create_params(token))


def crashed_after_create(store: Store, cfg: Config, batch_id: str, backend: MturkBackend,
                         client: Any) -> str:
    """Publish the batch's only HIT, with the process dying before it recorded MTurk's id."""
    (hit, token), = tokens(store)
    real_publish = backend.publish

    def dies(request: Any) -> str:
        real_publish(request)
        raise Killed

    with Stubber(client) as stub:
        stub.add_response("create_hit", {"HIT": {"HITId": EXT2}}, create_params(token))
        backend.publish = dies  # type: ignore[method-assign]
        with pytest.raises(Killed):
            publish_batch(store, cfg, batch_id, backend)
    backend.publish = real_publish  # type: ignore[method-assign]
    assert store.scalar("SELECT external_id FROM hit_hits") is None
    return token


def test_a_duplicate_without_the_hit_id_is_found_with_list_hits(
        tmp_path: Path, client: Any, mturk_setup: Setup) -> None:
    store, cfg, batch_id, backend, _ = mturk_setup(n_queries=8)
    token = crashed_after_create(store, cfg, batch_id, backend, client)
    with Stubber(client) as stub:
        hit_exists(stub, token, "The HIT already exists. (1624047673908)")
        stub.add_response("list_hits", {"HITs": [{"HITId": "OTHER",
                                                  "RequesterAnnotation": "someone else"}],
                                        "NextToken": "page2"}, {"MaxResults": 100})
        stub.add_response("list_hits", {"HITs": [{"HITId": EXT2,
                                                  "RequesterAnnotation": token}]},
                          {"MaxResults": 100, "NextToken": "page2"})
        assert publish_batch(store, cfg, batch_id, backend) == 1
        stub.assert_no_pending_responses()
    assert store.scalar("SELECT external_id FROM hit_hits") == EXT2


def test_a_token_older_than_a_day_is_looked_up_before_creating_again(
        tmp_path: Path, client: Any, mturk_setup: Setup) -> None:
    """MTurk forgets a UniqueRequestToken after 24 hours: a retry then would create a second
    HIT, so the backend lists the requester's HITs for the token first."""
    store, cfg, batch_id, _, _ = mturk_setup(n_queries=8)
    now = [1_700_000_000.0]
    backend = MturkBackend(store, cfg, client, sleep=lambda _: None, clock=lambda: now[0])
    token = crashed_after_create(store, cfg, batch_id, backend, client)
    now[0] += 25 * 3600
    with Stubber(client) as stub:  # no CreateHIT: it would make a duplicate
        stub.add_response("list_hits", {"HITs": [{"HITId": EXT2, "RequesterAnnotation": token}]},
                          {"MaxResults": 100})
        assert publish_batch(store, cfg, batch_id, backend) == 1
        stub.assert_no_pending_responses()
    assert store.scalar("SELECT external_id FROM hit_hits") == EXT2


def test_an_old_token_whose_hit_is_not_listed_is_created_again(
        tmp_path: Path, client: Any, mturk_setup: Setup) -> None:
    store, cfg, batch_id, _, _ = mturk_setup(n_queries=8)
    now = [1_700_000_000.0]
    backend = MturkBackend(store, cfg, client, sleep=lambda _: None, clock=lambda: now[0])
    (hit, token), = tokens(store)
    with Stubber(client) as stub:  # the first try never reached MTurk
        stub.add_client_error("create_hit", "RequestError", "Reward too low", 400)
        with pytest.raises(ClientError):
            publish_batch(store, cfg, batch_id, backend)
    now[0] += 30 * 3600
    with Stubber(client) as stub:
        stub.add_response("list_hits", {"HITs": []}, {"MaxResults": 100})
        stub.add_response("create_hit", {"HIT": {"HITId": EXT2}}, create_params(token))
        assert publish_batch(store, cfg, batch_id, backend) == 1
        stub.assert_no_pending_responses()
    assert store.scalar("SELECT requested_at FROM hit_requests WHERE hit_id = ?",
                        (hit,)) == now[0]


def answer_xml(values: dict[str, str]) -> str:
    body = "".join(
        f"<Answer><QuestionIdentifier>{k}</QuestionIdentifier><FreeText>{v}</FreeText></Answer>"
        for k, v in values.items()
    )
    return ('<?xml version="1.0" encoding="ASCII"?><QuestionFormAnswers xmlns="http://mechanical'
            'turk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd">'
            f"{body}</QuestionFormAnswers>")


def assignment(n: int, hit: str = "EXT1") -> dict[str, Any]:
    when = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    return {
        "AssignmentId": f"A{n}", "WorkerId": f"W{n}", "HITId": hit,
        "AssignmentStatus": "Submitted", "AcceptTime": when,
        "SubmitTime": datetime(2026, 1, 1, 12, 2, tzinfo=UTC),
        "Answer": answer_xml({f"item-{i}": "NIL" for i in range(1, 7)} | {"assignmentId": "x"}),
    }


def listing(hit: str, token: str | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"HITId": hit, "MaxResults": 100,
                              "AssignmentStatuses": ["Submitted", "Approved", "Rejected"]}
    if token:
        params["NextToken"] = token
    return params


def published(store: Store, cfg: Config, batch_id: str, backend: MturkBackend,
              client: Any) -> None:
    with Stubber(client) as stub:
        for n, (_, token) in enumerate(tokens(store), start=1):
            stub.add_response("create_hit", {"HIT": {"HITId": f"EXT{n}"}}, create_params(token))
        publish_batch(store, cfg, batch_id, backend)


def test_collect_pages_and_a_crash_mid_collection_loses_nothing(
        tmp_path: Path, client: Any, mturk_setup: Setup) -> None:
    store, cfg, batch_id, backend, _ = mturk_setup(n_queries=8)
    published(store, cfg, batch_id, backend, client)
    assert store.scalar("SELECT COUNT(*) FROM hit_hits") == 1
    with Stubber(client) as stub:
        stub.add_response("list_assignments_for_hit",
                          {"Assignments": [assignment(1), assignment(2)], "NextToken": "p2",
                           "NumResults": 2}, listing("EXT1"))
        stub.add_client_error("list_assignments_for_hit", "RequestError", "connection lost",
                              400, expected_params=listing("EXT1", "p2"))
        with pytest.raises(Exception, match="connection lost"):
            collect_batch(store, batch_id, backend)
    assert store.scalar("SELECT COUNT(*) FROM hit_assignments") == 2  # page 1 was committed
    with Stubber(client) as stub:
        stub.add_response("list_assignments_for_hit",
                          {"Assignments": [assignment(1), assignment(2)], "NextToken": "p2"},
                          listing("EXT1"))
        stub.add_client_error("list_assignments_for_hit", "ThrottlingException", "slow", 400)
        stub.add_response("list_assignments_for_hit", {"Assignments": [assignment(3)]},
                          listing("EXT1", "p2"))
        assert collect_batch(store, batch_id, backend) == 1
        stub.assert_no_pending_responses()
    assert store.scalar("SELECT COUNT(*) FROM hit_assignments") == 3
    assert store.scalar("SELECT COUNT(*) FROM judgments") == 18
    assert store.scalar("SELECT COUNT(DISTINCT label) FROM judgments") == 1
    assert store.scalar("SELECT MAX(seconds) FROM judgments") == pytest.approx(20.0)
    assert batch(store, batch_id).state == "collected"


def test_send_approves_and_treats_already_done_as_done(tmp_path: Path, client: Any,
        mturk_setup: Setup) -> None:
    store, cfg, batch_id, backend, _ = mturk_setup(n_queries=8)
    published(store, cfg, batch_id, backend, client)
    with Stubber(client) as stub:
        stub.add_response("list_assignments_for_hit",
                          {"Assignments": [assignment(1), assignment(2), assignment(3)]},
                          listing("EXT1"))
        collect_batch(store, batch_id, backend)
    with store.transaction():  # A3's worker answered both gold items right, the others not
        store.execute("UPDATE judgments SET label = (SELECT gold_answer FROM hit_items i WHERE "
                      "i.hit_id = judgments.hit_id AND i.position = judgments.position) "
                      "WHERE gold = 1 AND assignment_id IN ('A2', 'A3')")
        store.execute("UPDATE judgments SET label = 'NOT_PERSON' WHERE gold = 1 AND "
                      "assignment_id = 'A1'")
    review = review_batch(store, cfg, batch_id)
    dropped = store.query("SELECT worker FROM worker_gold WHERE dropped = 1 ORDER BY worker")
    assert review["workers"] == 3 and [w for (w,) in dropped] == ["W1"]
    decisions = store.query("SELECT assignment_id, decision, reason FROM payments ORDER BY 1")
    assert [tuple(r)[:2] for r in decisions] == [("A1", "reject"), ("A2", "approve"),
                                                 ("A3", "approve")]
    assert "0 of 2 known-answer items right" in decisions[0]["reason"]
    with Stubber(client) as stub:
        stub.add_response("reject_assignment", {},
                          {"AssignmentId": "A1", "RequesterFeedback": decisions[0]["reason"]})
        stub.add_client_error("approve_assignment", "RequestError",
                              "This operation can be called with a status of: Submitted", 400,
                              modeled_fields={
                                  "TurkErrorCode": "AWS.MechanicalTurk.InvalidAssignmentState"})
        stub.add_response("get_assignment", {"Assignment": {"AssignmentId": "A2",
                                                            "AssignmentStatus": "Approved"}},
                          {"AssignmentId": "A2"})
        stub.add_response("approve_assignment", {},
                          {"AssignmentId": "A3", "RequesterFeedback": "thank you"})
        for (worker,) in dropped:
            stub.add_response("associate_qualification_with_worker", {}, {
                "QualificationTypeId": "3FAILEDGOLDQUAL", "WorkerId": worker,
                "IntegerValue": 1, "SendNotification": False})
        send_batch(store, batch_id, backend)
        stub.assert_no_pending_responses()
    assert store.scalar("SELECT COUNT(*) FROM payments WHERE sent_at IS NULL") == 0


def test_html_question_posts_to_the_sandbox_and_escapes_corpus_text(tmp_path: Path, client: Any,
        mturk_setup: Setup, hostile: Any) -> None:
    script, img = hostile
    store, cfg, batch_id, backend, _ = mturk_setup(n_queries=8)
    sent: list[dict[str, Any]] = []
    client.meta.events.register("provide-client-params.mturk.CreateHIT",
                                lambda params, **_: sent.append(params))
    with Stubber(client) as stub:
        stub.add_response("create_hit", {"HIT": {"HITId": "EXT1"}}, create_params(ANY))
        publish_batch(store, cfg, batch_id, backend)
    xml = sent[0]["Question"]
    assert xml.startswith("<HTMLQuestion") and "<![CDATA[<!DOCTYPE html>" in xml
    assert f'action="{SUBMIT_URLS["sandbox"]}"' in xml
    assert 'name="assignmentId"' in xml and "ASSIGNMENT_ID_NOT_AVAILABLE" in xml
    for text in hostile:
        assert text not in xml
    requirements = sent[0]["QualificationRequirements"]
    assert {"QualificationTypeId": "3FAILEDGOLDQUAL", "Comparator": "DoesNotExist",
            "ActionsGuarded": "DiscoverPreviewAndAccept"} in requirements


def test_qualifications_from_config(tmp_path: Path, crowd_config: Any) -> None:
    cfg = crowd_config(tmp_path, mturk={"min_approval_rate": 97, "locales": ["US"],
                                      "exclude_qualifications": ["3XYZ"]})
    found = qualifications(cfg.hits.mturk)
    assert [q["Comparator"] for q in found] == ["GreaterThanOrEqualTo", "In", "DoesNotExist"]
    assert found[0]["IntegerValues"] == [97]
    assert found[1]["LocaleValues"] == [{"Country": "US"}]


def test_answer_xml_parsing() -> None:
    assert parse_answer(answer_xml({"item-1": "Q42", "item-2": "Ana Majer"})) == {
        "item-1": "Q42", "item-2": "Ana Majer"}
    with pytest.raises(XelError, match="not XML"):
        parse_answer("<broken")


def test_live_needs_the_config_and_the_flag(tmp_path: Path, client: Any, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=8)
    live = sim_config(tmp_path, mturk={"environment": "live"})
    with pytest.raises(XelError, match="pass --live"):
        mturk_backend(store, live, client=client)
    sandbox = sim_config(tmp_path)
    with pytest.raises(XelError, match="sandbox and live are never confused"):
        mturk_backend(store, sandbox, client=client, live=True)
    backend = mturk_backend(store, live, client=client, live=True)
    assert backend.environment == "live"


def test_missing_credentials_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        crowd_store: Any, sim_config: Any) -> None:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                 "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    store, _, _ = crowd_store(tmp_path, n_queries=8)
    with pytest.raises(XelError, match="no AWS credentials"):
        mturk_backend(store, sim_config(tmp_path))


def test_a_batch_stays_with_its_environment(tmp_path: Path, client: Any, mturk_setup: Setup,
        sim_config: Any) -> None:
    store, cfg, batch_id, backend, _ = mturk_setup(n_queries=8)
    published(store, cfg, batch_id, backend, client)
    live = sim_config(tmp_path, mturk={"environment": "live"})
    live_backend = mturk_backend(store, live, client=client, live=True)
    for step in (lambda: publish_batch(store, live, batch_id, live_backend),
                 lambda: collect_batch(store, batch_id, live_backend)):
        with pytest.raises(XelError, match="published with mturk \\(sandbox\\)"):
            step()


def test_bonus_block_and_expire_calls(tmp_path: Path, client: Any, mturk_setup: Setup,
        sim_config: Any) -> None:
    store, cfg, batch_id, backend, _ = mturk_setup(n_queries=8)
    published(store, cfg, batch_id, backend, client)
    with Stubber(client) as stub:
        stub.add_response("send_bonus", {}, {
            "WorkerId": "W1", "AssignmentId": "A1", "BonusAmount": "0.05",
            "Reason": "careful work", "UniqueRequestToken": "bonus-A1"})
        stub.add_response("update_expiration_for_hit", {}, {
            "HITId": "EXT1", "ExpireAt": datetime(2015, 1, 1, tzinfo=UTC)})
        backend.bonus("W1", "A1", 0.05, "careful work", "bonus-A1")
        assert expire_batch(store, batch_id, backend) == 1
        stub.assert_no_pending_responses()
    assert batch(store, batch_id).state == "collected"
    assert store.scalar("SELECT COUNT(*) FROM hit_hits WHERE expired_at IS NULL") == 0
    plain = mturk_backend(store, sim_config(tmp_path), client=client)
    with Stubber(client) as stub:
        stub.add_response("create_worker_block", {}, {"WorkerId": "W9", "Reason": "spam"})
        plain.block("W9", "spam")
        stub.assert_no_pending_responses()


# --- the same failures over a real socket, through botocore's HTTP stack ---------------------


class Canned(BaseHTTPRequestHandler):
    """Answers each POST with the next canned (delay, status, content type, body)."""

    replies: list[tuple[float, int, str, bytes]] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        delay, status, kind, body = self.replies.pop(0)
        time.sleep(delay)
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def endpoint() -> Iterator[tuple[str, list[tuple[float, int, str, bytes]]]]:
    replies: list[tuple[float, int, str, bytes]] = []
    handler = type("Handler", (Canned,), {"replies": replies})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", replies
    server.shutdown()
    server.server_close()


def local_client(url: str) -> Any:
    return boto3.client("mturk", region_name="us-east-1", endpoint_url=url,
                        aws_access_key_id="AKIAFAKE", aws_secret_access_key="fake",
                        config=BotoConfig(retries={"total_max_attempts": 1}, read_timeout=0.5,
                                          connect_timeout=0.5))


def test_html_503_bare_500_and_a_read_timeout_are_retried(tmp_path: Path,
        endpoint: tuple[str, list[tuple[float, int, str, bytes]]], crowd_store: Any,
        sim_config: Any) -> None:
    url, replies = endpoint
    html_503 = (0.0, 503, "text/html", b"<html><body>503 Service Temporarily Unavailable</body>"
                                       b"</html>")
    replies.append(html_503)
    with pytest.raises(ClientError) as error:  # botocore's own reading of it: code '503'
        local_client(url).get_account_balance()
    assert error.value.response["Error"]["Code"] == "503"
    store, _, _ = crowd_store(tmp_path, n_queries=8)
    sleeps: list[float] = []
    backend = MturkBackend(store, sim_config(tmp_path), local_client(url), sleep=sleeps.append)
    replies += [
        html_503,
        (0.0, 500, "text/plain", b""),
        (2.0, 200, "application/x-amz-json-1.1", b'{"AvailableBalance": "1.00"}'),  # too slow
        (0.0, 200, "application/x-amz-json-1.1", b'{"AvailableBalance": "10000.00"}'),
    ]
    assert backend.call("get_account_balance")["AvailableBalance"] == "10000.00"
    assert len(sleeps) == 3 and replies == []


def test_nothing_listening_is_retried_then_reported(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    with socket.socket() as s:  # a port with nothing listening: connections are refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store, _, _ = crowd_store(tmp_path, n_queries=8)
    sleeps: list[float] = []
    backend = MturkBackend(store, sim_config(tmp_path), local_client(f"http://127.0.0.1:{port}"),
                           sleep=sleeps.append, attempts=3)
    with pytest.raises(XelError, match="Could not connect to the endpoint URL") as error:
        backend.call("list_hits", MaxResults=100)
    assert "after 3 tries of ListHITs" in str(error.value) and len(sleeps) == 2
