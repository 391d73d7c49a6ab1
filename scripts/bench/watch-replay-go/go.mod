module kubesdk.local/watch-replay-go

go 1.22
