// @kubesdk/models/internal: building blocks the other kubesdk packages share with the models. NOT
// a public API: names here change without notice.

export { setMember } from "./own-member.js";
export { matchesStringFormat, STRING_FORMATS, type StringFormatCheck } from "./strfmt/formats.js";
export { requestUriProblems } from "./strfmt/request-uri.js";
export { type GoWritten, type GoWrittenField, type GoZero, writtenWhenAbsent } from "./wire/go-written.js";
export { type OmittedFields, omittedWhenEmpty } from "./wire/omit-empty.js";
