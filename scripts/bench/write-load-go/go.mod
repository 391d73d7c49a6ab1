module kubesdk.local/write-load-go

go 1.22
