// Package atomic is sync/atomic for code checked by verify.Explore: in a
// normal build its types are sync/atomic's (aliases); under -tags
// lockgen_check every access is a scheduling point of the controlled
// scheduler, labelled with the caller's file:line. See package
// verify/checked.
package atomic
