"""Lists and watches configmaps with the official Python client and prints JSON lines.

Usage: watch_configmaps.py KUBECONFIG NAMESPACE EXPECTED_EVENTS
Prints {"list": [...names], "rv": ...} after the list, then one {"type", "name", "data"} per event,
and exits after EXPECTED_EVENTS events (or when the server's timeout ends the watch).
"""
import json
import sys

from kubernetes import client, config, watch


def main() -> None:
    kubeconfig, namespace, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
    config.load_kube_config(config_file=kubeconfig)
    v1 = client.CoreV1Api()
    listed = v1.list_namespaced_config_map(namespace)
    print(json.dumps({"list": [i.metadata.name for i in listed.items], "rv": listed.metadata.resource_version}), flush=True)
    seen = 0
    w = watch.Watch()
    for event in w.stream(
        v1.list_namespaced_config_map,
        namespace,
        resource_version=listed.metadata.resource_version,
        timeout_seconds=60,
    ):
        obj = event["object"]
        print(json.dumps({"type": event["type"], "name": obj.metadata.name, "data": obj.data}), flush=True)
        seen += 1
        if seen >= expected:
            w.stop()
            break


if __name__ == "__main__":
    main()
