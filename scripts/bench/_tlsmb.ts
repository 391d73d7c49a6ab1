import { createSecureContext } from "node:tls";
import { createCertificateAuthority } from "../../packages/server/src/tls.js";
const ca = createCertificateAuthority();
const s = ca.issue({ commonName: "x", dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"], usage: "server" });
function t(label: string, opts: object) {
  for (let i = 0; i < 3; i++) createSecureContext(opts);
  const a = performance.now(); const N = 20;
  for (let i = 0; i < N; i++) createSecureContext(opts);
  console.log(label, ((performance.now() - a) / N).toFixed(2), "ms");
}
t("cert+key", { cert: s.certPem, key: s.keyPem });
t("cert+key+ca", { cert: s.certPem, key: s.keyPem, ca: ca.certPem });
t("chain+key+ca", { cert: s.certPem + ca.certPem, key: s.keyPem, ca: ca.certPem });
t("chain+key", { cert: s.certPem + ca.certPem, key: s.keyPem });
t("ca only", { ca: ca.certPem });
t("nothing", {});
