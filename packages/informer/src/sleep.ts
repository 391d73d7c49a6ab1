// The informer waits with the transport's abortable sleep (true when the time passed, false on abort).
export { sleep } from "@kubesdk/transport";
