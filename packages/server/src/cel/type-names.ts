/** cel-go's names of types, as its messages spell them: list(int), map(string, int), duration, timestamp. */
export const goType = (t: string) =>
  t
    .replaceAll("<", "(")
    .replaceAll(">", ")")
    .replaceAll("google.protobuf.Duration", "duration")
    .replaceAll("google.protobuf.Timestamp", "timestamp");
