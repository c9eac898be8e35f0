package v1

// SetDefaults_Port sets the port to 8080.
func SetDefaults_Port(obj *Port) {
	if obj.Port == 0 {
		obj.Port = 8080
	}
}

// SetDefaults_Backup keeps three backups.
func SetDefaults_Backup(obj *Backup) {
	if obj.Keep == 0 {
		obj.Keep = 3
	}
}

// SetDefaults_Backup_Schedule backs up daily; additional defaulters run after the base one.
func SetDefaults_Backup_Schedule(obj *Backup) {
	if obj.Schedule == "" {
		obj.Schedule = "@daily"
	}
}

// SetDefaults_Covered sets its port itself, so the generated code does not descend into it.
// +k8s:defaulter-gen=covers
func SetDefaults_Covered(obj *Covered) {
	if obj.Port.Port == 0 {
		obj.Port.Port = 443
	}
}

// SetObjectDefaults_Gauge is a hand-written object defaulter.
func SetObjectDefaults_Gauge(obj *Gauge) {
	if obj.Value == 0 {
		obj.Value = 1
	}
}
