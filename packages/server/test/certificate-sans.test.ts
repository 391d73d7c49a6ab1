import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createCertificateAuthority } from "../src/tls.js";

const ca = createCertificateAuthority();
const sans = (ipAddresses: string[]) =>
  new X509Certificate(ca.issue({ commonName: "s", usage: "server", ipAddresses }).certPem).subjectAltName;

describe("certificate IP SANs", () => {
  it("writes IPv4 and IPv6 addresses as OpenSSL reads them back", () => {
    expect(sans(["127.0.0.1", "::1", "fe80::1:2", "2001:db8:0:0:1:0:0:1", "1::"])).toBe(
      "IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:FE80:0:0:0:0:0:1:2, " +
        "IP Address:2001:DB8:0:0:1:0:0:1, IP Address:1:0:0:0:0:0:0:0",
    );
  });

  it("writes the lowest and highest IPv4 addresses", () => {
    expect(sans(["0.0.0.0", "255.255.255.255"])).toBe("IP Address:0.0.0.0, IP Address:255.255.255.255");
  });

  it.each([
    "1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    "1:2:3:4:5:6:7:8::",
    "12345::1",
    "g::1",
    "::ffff:1.2.3.4",
    "1.2.3.256",
    "01.2.3.4",
    "1.2.3",
    "1.2.3.-0",
    "localhost",
  ])("refuses %s", (ip) => {
    expect(() => sans([ip])).toThrow(/unsupported IP address/);
  });
});

describe("certificate validity", () => {
  it.each([2, 9_000])(
    "runs from a minute before issue for %i days (UTCTime, GeneralizedTime after 2049)",
    (days) => {
      const cert = new X509Certificate(ca.issue({ commonName: "s", usage: "server", days }).certPem);
      const ms = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
      expect(ms).toBe(days * 86_400_000 + 60_000);
    },
  );
});
