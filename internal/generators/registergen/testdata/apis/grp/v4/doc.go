// +groupName=grp.example.com

package v4
