// +groupName=grp.example.com

package v1
