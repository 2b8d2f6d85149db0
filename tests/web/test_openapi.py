"""The API's OpenAPI document is its contract: every request model and every answer of every
``/api`` route is in it, with the defaults the library's option metadata gives; and a body
that its model refuses is the contract's one-line 400, whatever content type it came with.

These need no worker: the app is built, not started (no lifespan).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import BaseModel

from searchlab.algorithms.mcts.options import DEFAULT_C
from searchlab.algorithms.path.registry import DEFAULT_WEIGHT
from searchlab.web.app import OPENAPI, create_app
from searchlab.web.models import (
    AstarExerciseQuery,
    ExerciseQuery,
    GameRequest,
    GradeRequest,
    MctsStepsRequest,
    PathRequest,
    TreeRequest,
)
from searchlab.web.routers import ROUTERS

BODY_MODELS: dict[str, type[BaseModel]] = {
    "/api/play/state": GameRequest,
    "/api/path": PathRequest,
    "/api/tree": TreeRequest,
    "/api/mcts/steps": MctsStepsRequest,
    "/api/exercise/alphabeta/grade": GradeRequest,
}
QUERY_MODELS: dict[str, type[BaseModel]] = {
    "/api/exercise/alphabeta": ExerciseQuery,
    "/api/exercise/astar": AstarExerciseQuery,
}


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app(workers=1)


@pytest.fixture(scope="module")
def document(app: Any) -> dict[str, Any]:
    return app.openapi()


def api_routes() -> list[APIRoute]:
    routes = [r for router in ROUTERS for r in router.routes if isinstance(r, APIRoute)]
    assert routes and all(r.path.startswith("/api/") for r in routes)
    return routes


def test_every_request_model_is_in_the_openapi_document(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for path, model in BODY_MODELS.items():
        assert model.__name__ in schemas, model
        body = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        assert body["schema"]["$ref"] == f"#/components/schemas/{model.__name__}", path
        assert set(schemas[model.__name__]["properties"]) == set(model.model_fields), path
    for path, model in QUERY_MODELS.items():
        parameters = document["paths"][path]["get"]["parameters"]
        assert {p["name"] for p in parameters if p["in"] == "query"} == set(model.model_fields)


def test_every_api_route_documents_its_request_and_its_answer(
    app: Any, document: dict[str, Any]
) -> None:
    routes = api_routes()
    posts = {r.path for r in routes if "POST" in (r.methods or ())}
    assert posts == set(BODY_MODELS)  # every body route has its model above, and no more
    documented = {path for path in document["paths"] if path.startswith("/api/")}
    assert {r.path_format for r in routes} == documented
    for route in routes:
        for method in route.methods or ():
            operation = document["paths"][route.path_format][method.lower()]
            answer = operation["responses"]["200"]["content"]["application/json"]["schema"]
            ref = answer.get("$ref") or answer.get("items", {}).get("$ref")
            assert ref and ref.startswith("#/components/schemas/"), (route.path, answer)
            if method == "POST":
                assert "requestBody" in operation, route.path


def test_the_defaults_are_the_librarys(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    assert schemas["PathRequest"]["properties"]["weight"]["default"] == DEFAULT_WEIGHT
    assert schemas["MctsStepsRequest"]["properties"]["c"]["default"] == DEFAULT_C
    assert schemas["PathRequest"]["required"] == ["start", "goal"]


def test_the_document_is_served(app: Any, document: dict[str, Any]) -> None:
    client = TestClient(app)  # not started: no workers, no lifespan
    assert client.get(OPENAPI).json() == document


def test_a_refused_body_is_one_line_whatever_its_content_type(app: Any) -> None:
    client = TestClient(app)
    for content_type in ("application/json", "application/x-www-form-urlencoded", None):
        headers = {"content-type": content_type} if content_type else {}
        answer = client.post("/api/tree", content=b'{"algorithm": 3}', headers=headers)
        assert answer.status_code == 400, answer.text
        assert answer.json() == {"error": "missing field 'tree'"}
    answer = client.get("/api/exercise/alphabeta?depth=deep")
    assert answer.json() == {"error": "depth must be a whole number, got 'deep'"}
