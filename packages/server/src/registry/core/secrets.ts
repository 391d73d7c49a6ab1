/** Secrets: stringData folded into data, type Opaque; selectable by type. */
import { child, isObj, set } from "../default-fields.js";
import type { KindStrategy } from "../strategy.js";

export const secrets: KindStrategy = {
  group: "",
  resource: "secrets",
  fieldLabels: ["type"],
  defaults(obj) {
    // stringData is write-only: merged into data (base64) and dropped, as upstream converts it.
    if (isObj(obj.stringData)) {
      const data = child(obj, "data");
      for (const [k, v] of Object.entries(obj.stringData))
        if (typeof v === "string") data[k] = Buffer.from(v).toString("base64");
    }
    delete obj.stringData;
    set(obj, "type", "Opaque");
  },
};
