// File: mirror_herder.h
//
// MirrorConnectorsWriter: what Java's MirrorHerder adds to a distributed herder. Whenever the
// worker becomes the leader of its flow's group (after a completed rebalance), it compares the
// stored config of each of the three MirrorMaker connectors with the one computed from this
// node's mm2.properties and writes those that differ (KAFKA-15372). Nodes with conflicting files
// therefore race: the last node to become leader wins, as in Java.
//
// Wiring: DistributedHerder::Options::on_rebalance_success = [&w](bool l) { w.OnRebalance(l); }
// and Attach(herder) before the herder starts.
//
// Threads: OnRebalance runs on the herder thread (and only there); the herder calls it answers
// run on the herder thread too. Nothing blocks.
#pragma once

#include <map>
#include <string>

#include "runtime/herder_api/herder.h"
#include "runtime/mirror_maker/mirror_maker_config.h"

namespace connectd::mirror_maker {

class MirrorConnectorsWriter {
 public:
  // `desired`: connector name -> the config MirrorMakerConfig::ConnectorConfig computed.
  MirrorConnectorsWriter(SourceAndTarget flow, std::map<std::string, Properties> desired)
      : flow_(std::move(flow)), desired_(std::move(desired)) {}

  // The herder whose configs this writes; must outlive this object's use.
  void Attach(herder::Herder& herder) { herder_ = &herder; }

  // After each completed rebalance: on becoming leader, writes every connector config that
  // differs from the stored one (Java's MirrorHerder.rebalanceSuccess).
  void OnRebalance(bool is_leader);

 private:
  void MaybeConfigure(const std::string& name, const Properties& desired);

  const SourceAndTarget flow_;
  const std::map<std::string, Properties> desired_;
  herder::Herder* herder_ = nullptr;
  bool was_leader_ = false;  // herder thread only
};

}  // namespace connectd::mirror_maker
