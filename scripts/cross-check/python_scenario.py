"""The cross-check scenario driven through the official Python client.

Usage: python3 python_scenario.py KUBECONFIG SCRATCH_DIR PARAMS_JSON
PARAMS_JSON names the namespace, objects and label selector (main.ts owns them);
SCRATCH_DIR holds the fixture manifests. Prints one JSON array: per step
{"step": name, "outcome": {...}} where the outcome is the client's typed result
turned back into JSON, or the ApiException's status, reason and body.
"""

import json
import os
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException


def main() -> None:
    kubeconfig, scratch, params_json = sys.argv[1:4]
    params = json.loads(params_json)
    ns = params["namespace"]
    cm_name = params["configMapName"]
    selector = params["labelSelector"]

    def manifest(name):
        with open(os.path.join(scratch, name), encoding="utf-8") as f:
            return json.load(f)

    api_client = config.new_client_from_config(config_file=kubeconfig)
    core = client.CoreV1Api(api_client)
    apps = client.AppsV1Api(api_client)
    results = []

    def step(name, call):
        try:
            value = call()
            outcome = {"ok": True, "result": api_client.sanitize_for_serialization(value)}
        except ApiException as e:
            try:
                body = json.loads(e.body)
            except (TypeError, ValueError):
                body = e.body
            outcome = {"ok": False, "status": e.status, "reason": e.reason, "body": body}
        except Exception as e:  # a client-side failure (e.g. deserialisation) is a result too
            outcome = {"ok": False, "exception": f"{type(e).__name__}: {e}"}
        results.append({"step": name, "outcome": outcome})
        return outcome

    step("create-namespace", lambda: core.create_namespace(manifest("namespace.json")))
    created = step(
        "create-configmap", lambda: core.create_namespaced_config_map(ns, manifest("configmap.json"))
    )
    def list_by_label():
        return core.list_namespaced_config_map(ns, label_selector=selector)

    step("get-configmap", lambda: core.read_namespaced_config_map(cm_name, ns))
    step("list-configmaps-by-label", list_by_label)
    step(
        "patch-configmap-merge",
        lambda: core.patch_namespaced_config_map(
            cm_name, ns, {"data": {"b": "2"}}, _content_type="application/merge-patch+json"
        ),
    )
    # The object as created carries the resourceVersion from before the patch.
    stale = dict(created.get("result") or {}, data={"a": "stale"})
    step("replace-configmap-stale", lambda: core.replace_namespaced_config_map(cm_name, ns, stale))
    step("delete-configmap", lambda: core.delete_namespaced_config_map(cm_name, ns))
    step("list-configmaps-after-delete", list_by_label)
    step(
        "create-deployment",
        lambda: apps.create_namespaced_deployment(ns, manifest("deployment.json")),
    )
    step("get-deployment", lambda: apps.read_namespaced_deployment(params["deploymentName"], ns))
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
