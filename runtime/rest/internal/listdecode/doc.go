// Package listdecode decodes a list response body (a PodList, a DeploymentList, ...) as it is read,
// item by item, so that the whole body and the decoded list are never held in memory at once.
//
// It handles the two encodings the API server sends lists in, JSON and the Kubernetes protobuf
// envelope, and only when the response decoder is the plain apimachinery serializer without
// conversion (what CodecFactory.WithoutConversion gives). The result matches what decoding the
// whole body with that decoder gives:
//
//   - The part of the body before the items (kind, apiVersion, metadata) is decoded with the
//     decoder itself, so kind checks, Status bodies and type errors behave as in the buffered path.
//     When that part is not a list of the target's type, or the body does not start as expected,
//     the bytes read so far and the rest of the body are handed to the buffered decode instead.
//   - Items are decoded one at a time into the target's Items slice with the same JSON or protobuf
//     unmarshalling the buffered path uses.
//   - When the body turns out to be malformed or an item does not decode, the rest of the body is
//     read and decoded the buffered way behind a small synthetic prefix that stands for the part
//     already decoded, so the error is the one the buffered path reports.
//
// Two kinds of body no API server sends are not matched exactly, as the items are decoded by the
// time they show: a JSON list that sets kind or apiVersion again after its items to another type,
// and a protobuf envelope that sets its type again after the raw list to another one. Both are
// reported as errors.
package listdecode
