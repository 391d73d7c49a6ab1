/**
 * Issue 31: a pod's network, cloud, CSI and image volume sources, and claim volumes naming the
 * claim of an ephemeral volume.
 * Each row is sent with dryRun=All and answered as kube-apiserver 1.37 answers it; the broader
 * comparison is `pnpm diff:server` (scripts/differential/specs/pod-volume-bodies.ts).
 */
import { describe } from "vitest";
import { type PodRow, podValidationSuite } from "./pod-validation-suite.js";
import { DNS_LABEL, DNS_SUBDOMAIN } from "./spec-validation-cases.js";

const { itAnswersPods } = podValidationSuite("val-podstor");

const ROWS: PodRow[] = [
  [
    "network and cloud volume sources without their fields",
    {
      volumes: [
        { name: "a", nfs: { path: "rel" } },
        { name: "b", iscsi: { lun: 300, iqn: "foo" } },
        { name: "c", glusterfs: {} },
        { name: "d", rbd: {} },
        { name: "e", cinder: { secretRef: {} } },
        { name: "f", cephfs: {} },
        { name: "g", fc: {} },
        { name: "h", flexVolume: { options: { "kubernetes.io/x": "y" } } },
        { name: "i", azureFile: {} },
        { name: "j", vsphereVolume: {} },
        { name: "k", photonPersistentDisk: {} },
        { name: "l", portworxVolume: {} },
        { name: "m", azureDisk: { kind: "Foo", cachingMode: "Bar" } },
        { name: "n", storageos: { volumeName: "Bad_V", secretRef: {} } },
        { name: "o", scaleIO: { secretRef: { name: "s" } } },
        { name: "p", quobyte: { registry: "nohost" } },
        { name: "q", flocker: {} },
        { name: "r", gcePersistentDisk: { partition: 300 } },
        { name: "s", awsElasticBlockStore: { partition: -1 } },
      ],
    },
    {},
    [
      "volumes[0].nfs.server | FieldValueRequired | Required value",
      'volumes[0].nfs.path | FieldValueInvalid | Invalid value: "rel": must be an absolute path',
      "volumes[1].iscsi.targetPortal | FieldValueRequired | Required value",
      'volumes[1].iscsi.iqn | FieldValueInvalid | Invalid value: "foo": must be valid format starting with iqn, eui, or naa',
      "volumes[1].iscsi.lun | FieldValueInvalid | Invalid value: 300: must be between 0 and 255, inclusive",
      "volumes[2].glusterfs.endpoints | FieldValueRequired | Required value",
      "volumes[2].glusterfs.path | FieldValueRequired | Required value",
      "volumes[3].rbd.monitors | FieldValueRequired | Required value",
      "volumes[3].rbd.image | FieldValueRequired | Required value",
      "volumes[4].cinder.volumeID | FieldValueRequired | Required value",
      "volumes[4].cinder.secretRef.name | FieldValueRequired | Required value",
      "volumes[5].cephfs.monitors | FieldValueRequired | Required value",
      "volumes[6].fc.targetWWNs | FieldValueRequired | Required value: must specify either targetWWNs or wwids, but not both",
      "volumes[7].flexVolume.driver | FieldValueRequired | Required value",
      'volumes[7].flexVolume.options[kubernetes.io/x] | FieldValueInvalid | Invalid value: "kubernetes.io/x": kubernetes.io and k8s.io namespaces are reserved',
      "volumes[8].azureFile.secretName | FieldValueRequired | Required value",
      "volumes[8].azureFile.shareName | FieldValueRequired | Required value",
      "volumes[9].vsphereVolume.volumePath | FieldValueRequired | Required value",
      "volumes[10].photonPersistentDisk.pdID | FieldValueRequired | Required value",
      "volumes[11].portworxVolume.volumeID | FieldValueRequired | Required value",
      "volumes[12].azureDisk.diskName | FieldValueRequired | Required value",
      "volumes[12].azureDisk.diskURI | FieldValueRequired | Required value",
      'volumes[12].azureDisk.cachingMode | FieldValueNotSupported | Unsupported value: "Bar": supported values: "None", "ReadOnly", "ReadWrite"',
      'volumes[12].azureDisk.kind | FieldValueNotSupported | Unsupported value: "Foo": supported values: "Dedicated", "Managed", "Shared"',
      'volumes[12].azureDisk.diskURI | FieldValueNotSupported | Unsupported value: "": supported values: "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"',
      `volumes[13].storageos.volumeName | FieldValueInvalid | Invalid value: "Bad_V": ${DNS_LABEL}`,
      "volumes[13].storageos.secretRef.name | FieldValueRequired | Required value",
      "volumes[14].scaleIO.gateway | FieldValueRequired | Required value",
      "volumes[14].scaleIO.system | FieldValueRequired | Required value",
      "volumes[14].scaleIO.volumeName | FieldValueRequired | Required value",
      'volumes[15].quobyte.registry | FieldValueInvalid | Invalid value: "nohost": must be a host:port pair or multiple pairs separated by commas',
      "volumes[15].quobyte.volume | FieldValueRequired | Required value",
      "volumes[16].flocker | FieldValueRequired | Required value: one of datasetName and datasetUUID is required",
      "volumes[17].persistentDisk.pdName | FieldValueRequired | Required value",
      "volumes[17].persistentDisk.partition | FieldValueInvalid | Invalid value: 300: must be between 1 and 255, inclusive",
      "volumes[18].awsElasticBlockStore.volumeID | FieldValueRequired | Required value",
      "volumes[18].awsElasticBlockStore.partition | FieldValueInvalid | Invalid value: -1: must be between 1 and 255, inclusive",
    ],
  ],
  [
    "iSCSI names and CHAP without a secret",
    {
      volumes: [
        {
          name: "v",
          iscsi: {
            targetPortal: "1.2.3.4:3260",
            iqn: "iqn.2001-04.com.example:storage",
            lun: 0,
            initiatorName: "foo",
            chapAuthDiscovery: true,
          },
        },
        { name: "w", iscsi: { targetPortal: "t", iqn: "eui.123", lun: 0 } },
        { name: "x", iscsi: { targetPortal: "t", iqn: "iqn.bad", lun: 0 } },
      ],
    },
    {},
    [
      "volumes[0].iscsi.secretRef | FieldValueRequired | Required value",
      'volumes[0].iscsi.initiatorname | FieldValueInvalid | Invalid value: "foo": must be valid format starting with iqn, eui, or naa',
      'volumes[1].iscsi.iqn | FieldValueInvalid | Invalid value: "eui.123": must be valid format',
      'volumes[2].iscsi.iqn | FieldValueInvalid | Invalid value: "iqn.bad": must be valid format',
    ],
  ],
  [
    "fibre channel targets and luns",
    {
      volumes: [
        { name: "v", fc: { targetWWNs: ["a"], wwids: ["b"] } },
        { name: "w", fc: { targetWWNs: ["a"] } },
        { name: "x", fc: { targetWWNs: ["a"], lun: 256 } },
      ],
    },
    {},
    [
      'volumes[0].fc.targetWWNs | FieldValueInvalid | Invalid value: ["a"]: targetWWNs and wwids can not be specified simultaneously',
      "volumes[0].fc.lun | FieldValueRequired | Required value: lun is required if targetWWNs is specified",
      "volumes[1].fc.lun | FieldValueRequired | Required value: lun is required if targetWWNs is specified",
      "volumes[2].fc.lun | FieldValueInvalid | Invalid value: 256: must be between 0 and 255, inclusive",
    ],
  ],
  [
    "quobyte registries",
    {
      volumes: [
        { name: "v", quobyte: { registry: "h:1,h2", volume: "x" } },
        { name: "w", quobyte: { registry: "h:1", volume: "x", tenant: "%s" } },
      ],
    },
    {},
    [
      'volumes[0].quobyte.registry | FieldValueInvalid | Invalid value: "h:1,h2": must be a host:port pair or multiple pairs separated by commas',
    ],
  ],
  [
    "a flocker dataset name and UUID",
    { volumes: [{ name: "v", flocker: { datasetName: "a/b", datasetUUID: "u" } }] },
    {},
    [
      'volumes[0].flocker | FieldValueInvalid | Invalid value: "resource": datasetName and datasetUUID can not be specified simultaneously',
      "volumes[0].flocker.datasetName | FieldValueInvalid | Invalid value: \"a/b\": must not contain '/'",
    ],
  ],
  [
    "azureDisk URIs of the other kind",
    {
      volumes: [
        { name: "v", azureDisk: { diskName: "d", diskURI: "https://x", kind: "Managed" } },
        { name: "w", azureDisk: { diskName: "d", diskURI: "/subscriptions/x", kind: "Shared" } },
      ],
    },
    {},
    [
      'volumes[0].azureDisk.diskURI | FieldValueNotSupported | Unsupported value: "https://x": supported values: "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"',
      'volumes[1].azureDisk.diskURI | FieldValueNotSupported | Unsupported value: "/subscriptions/x": supported values: "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"',
    ],
  ],
  [
    "a storageos namespace that is no label",
    { volumes: [{ name: "v", storageos: { volumeName: "v", volumeNamespace: "Bad_NS" } }] },
    {},
    [`volumes[0].storageos.volumeNamespace | FieldValueInvalid | Invalid value: "Bad_NS": ${DNS_LABEL}`],
  ],
  [
    "an empty CSI driver",
    { volumes: [{ name: "v", csi: { driver: "" } }] },
    {},
    ["volumes[0].csi.driver | FieldValueRequired | Required value"],
  ],
  [
    "CSI drivers and node publish secrets",
    {
      volumes: [
        { name: "v", csi: { driver: "Bad_Driver", nodePublishSecretRef: { name: "Bad_S" } } },
        { name: "w", csi: { driver: "d.io", nodePublishSecretRef: {} } },
        {
          name: "x",
          csi: { driver: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" },
        },
      ],
    },
    {},
    [
      `volumes[0].csi.driver | FieldValueInvalid | Invalid value: "Bad_Driver": ${DNS_SUBDOMAIN}`,
      `volumes[0].csi.name | FieldValueInvalid | Invalid value: "Bad_S": ${DNS_SUBDOMAIN}`,
      "volumes[1].csi.nodePublishSecretRef.name | FieldValueRequired | Required value",
      "volumes[2].csi.driver | FieldValueTooLong | Too long: may not be more than 63 bytes",
    ],
  ],
  [
    "an image volume pull policy",
    { volumes: [{ name: "v", image: { reference: "busybox", pullPolicy: "Foo" } }] },
    { volumeMounts: [{ name: "v", mountPath: "/m", subPathExpr: "x" }] },
    [
      'volumes[0].image.pullPolicy | FieldValueNotSupported | Unsupported value: "Foo": supported values: "Always", "IfNotPresent", "Never"',
      'containers[0].volumeMounts[0].name | FieldValueNotFound | Not found: "v"',
    ],
  ],
  [
    "a subPath into an image volume",
    { volumes: [{ name: "v", image: { reference: "busybox" } }] },
    { volumeMounts: [{ name: "v", mountPath: "/m", subPath: "x" }] },
    [],
  ],
  [
    "a claim volume naming an ephemeral volume's claim",
    {
      volumes: [
        {
          name: "v",
          ephemeral: {
            volumeClaimTemplate: {
              spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
            },
          },
        },
        { name: "w", persistentVolumeClaim: { claimName: "p-v" } },
      ],
    },
    {},
    [
      'volumes[1].persistentVolumeClaim.claimName | FieldValueInvalid | Invalid value: "p-v": must not reference a PVC that gets created for an ephemeral volume',
    ],
  ],
];

describe("network, cloud, CSI and image volumes", () => itAnswersPods(ROWS));
