// kubesdk/apply: apply configurations, conflict policies, field paths and extract: @kubesdk/apply whole.
export * from "@kubesdk/apply";
