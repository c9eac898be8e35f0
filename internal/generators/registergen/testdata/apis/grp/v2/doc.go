// +groupName=grp.example.com

package v2
